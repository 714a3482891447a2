// swift-format-ignore-file
// Generated from the App Store Server API error list (Apple's documentation, as listed in
// app_store_api_error_codes.txt) by generate_error_codes.py beside this file. Generated, do not
// edit.

import SigilAppStore

/// An App Store Server API errorCode. Unknown codes are kept as their raw value.
public struct AppStoreAPIErrorCode: AppStoreOpenEnum {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let generalBadRequest = AppStoreAPIErrorCode(rawValue: 4000000)
    public static let invalidAppIdentifier = AppStoreAPIErrorCode(rawValue: 4000002)
    public static let invalidRequestRevision = AppStoreAPIErrorCode(rawValue: 4000005)
    public static let invalidTransactionId = AppStoreAPIErrorCode(rawValue: 4000006)
    public static let invalidOriginalTransactionId = AppStoreAPIErrorCode(rawValue: 4000008)
    public static let invalidExtendByDays = AppStoreAPIErrorCode(rawValue: 4000009)
    public static let invalidExtendReasonCode = AppStoreAPIErrorCode(rawValue: 4000010)
    public static let invalidRequestIdentifier = AppStoreAPIErrorCode(rawValue: 4000011)
    public static let startDateTooFarInPast = AppStoreAPIErrorCode(rawValue: 4000012)
    public static let startDateAfterEndDate = AppStoreAPIErrorCode(rawValue: 4000013)
    public static let invalidPaginationToken = AppStoreAPIErrorCode(rawValue: 4000014)
    public static let invalidStartDate = AppStoreAPIErrorCode(rawValue: 4000015)
    public static let invalidEndDate = AppStoreAPIErrorCode(rawValue: 4000016)
    public static let paginationTokenExpired = AppStoreAPIErrorCode(rawValue: 4000017)
    public static let invalidNotificationType = AppStoreAPIErrorCode(rawValue: 4000018)
    public static let multipleFiltersSupplied = AppStoreAPIErrorCode(rawValue: 4000019)
    public static let invalidTestNotificationToken = AppStoreAPIErrorCode(rawValue: 4000020)
    public static let invalidSort = AppStoreAPIErrorCode(rawValue: 4000021)
    public static let invalidProductType = AppStoreAPIErrorCode(rawValue: 4000022)
    public static let invalidProductId = AppStoreAPIErrorCode(rawValue: 4000023)
    public static let invalidSubscriptionGroupIdentifier = AppStoreAPIErrorCode(rawValue: 4000024)
    public static let invalidExcludeRevoked = AppStoreAPIErrorCode(rawValue: 4000025)
    public static let invalidInAppOwnershipType = AppStoreAPIErrorCode(rawValue: 4000026)
    public static let invalidEmptyStorefrontCountryCodeList = AppStoreAPIErrorCode(rawValue: 4000027)
    public static let invalidStorefrontCountryCode = AppStoreAPIErrorCode(rawValue: 4000028)
    public static let invalidRevoked = AppStoreAPIErrorCode(rawValue: 4000030)
    public static let invalidStatus = AppStoreAPIErrorCode(rawValue: 4000031)
    public static let invalidAccountTenure = AppStoreAPIErrorCode(rawValue: 4000032)
    public static let invalidAppAccountToken = AppStoreAPIErrorCode(rawValue: 4000033)
    public static let invalidConsumptionStatus = AppStoreAPIErrorCode(rawValue: 4000034)
    public static let invalidCustomerConsented = AppStoreAPIErrorCode(rawValue: 4000035)
    public static let invalidDeliveryStatus = AppStoreAPIErrorCode(rawValue: 4000036)
    public static let invalidLifetimeDollarsPurchased = AppStoreAPIErrorCode(rawValue: 4000037)
    public static let invalidLifetimeDollarsRefunded = AppStoreAPIErrorCode(rawValue: 4000038)
    public static let invalidPlatform = AppStoreAPIErrorCode(rawValue: 4000039)
    public static let invalidPlayTime = AppStoreAPIErrorCode(rawValue: 4000040)
    public static let invalidSampleContentProvided = AppStoreAPIErrorCode(rawValue: 4000041)
    public static let invalidUserStatus = AppStoreAPIErrorCode(rawValue: 4000042)
    public static let invalidTransactionNotConsumable = AppStoreAPIErrorCode(rawValue: 4000043)  // deprecated
    public static let invalidTransactionTypeNotSupported = AppStoreAPIErrorCode(rawValue: 4000047)
    public static let appTransactionIdNotSupported = AppStoreAPIErrorCode(rawValue: 4000048)
    public static let invalidImage = AppStoreAPIErrorCode(rawValue: 4000161)
    public static let headerTooLong = AppStoreAPIErrorCode(rawValue: 4000162)
    public static let bodyTooLong = AppStoreAPIErrorCode(rawValue: 4000163)
    public static let invalidLocale = AppStoreAPIErrorCode(rawValue: 4000164)
    public static let altTextTooLong = AppStoreAPIErrorCode(rawValue: 4000175)
    public static let invalidAppAccountTokenUUID = AppStoreAPIErrorCode(rawValue: 4000183)
    public static let familyTransactionNotSupported = AppStoreAPIErrorCode(rawValue: 4000185)
    public static let transactionIdNotOriginalTransactionId = AppStoreAPIErrorCode(rawValue: 4000187)
    public static let invalidPerformanceTestRequest = AppStoreAPIErrorCode(rawValue: 4000211)
    public static let invalidRequestId = AppStoreAPIErrorCode(rawValue: 4000212)
    public static let existingPerformanceTestRun = AppStoreAPIErrorCode(rawValue: 4000213)
    public static let badRequestRealtimeUrl = AppStoreAPIErrorCode(rawValue: 4000215)
    public static let badRequestImageSize = AppStoreAPIErrorCode(rawValue: 4000216)
    public static let badRequestTooManyBulletPoints = AppStoreAPIErrorCode(rawValue: 4000218)
    public static let badRequestBulletPointTextTooLong = AppStoreAPIErrorCode(rawValue: 4000219)
    public static let badRequestAboveImageRequiresAnImage = AppStoreAPIErrorCode(rawValue: 4000224)
    public static let subscriptionExtensionIneligible = AppStoreAPIErrorCode(rawValue: 4030004)
    public static let subscriptionMaxExtension = AppStoreAPIErrorCode(rawValue: 4030005)
    public static let familySharedSubscriptionExtensionIneligible = AppStoreAPIErrorCode(rawValue: 4030007)
    public static let maximumNumberOfImagesReached = AppStoreAPIErrorCode(rawValue: 4030014)
    public static let maximumNumberOfMessagesReached = AppStoreAPIErrorCode(rawValue: 4030016)
    public static let messageNotApproved = AppStoreAPIErrorCode(rawValue: 4030017)
    public static let imageNotApproved = AppStoreAPIErrorCode(rawValue: 4030018)
    public static let imageInUse = AppStoreAPIErrorCode(rawValue: 4030019)
    public static let forbiddenNoPassingTest = AppStoreAPIErrorCode(rawValue: 4030026)
    public static let accountNotFound = AppStoreAPIErrorCode(rawValue: 4040001)
    public static let accountNotFoundRetryable = AppStoreAPIErrorCode(rawValue: 4040002)
    public static let appNotFound = AppStoreAPIErrorCode(rawValue: 4040003)
    public static let appNotFoundRetryable = AppStoreAPIErrorCode(rawValue: 4040004)
    public static let originalTransactionIdNotFound = AppStoreAPIErrorCode(rawValue: 4040005)
    public static let originalTransactionIdNotFoundRetryable = AppStoreAPIErrorCode(rawValue: 4040006)
    public static let serverNotificationUrlNotFound = AppStoreAPIErrorCode(rawValue: 4040007)
    public static let testNotificationNotFound = AppStoreAPIErrorCode(rawValue: 4040008)
    public static let statusRequestNotFound = AppStoreAPIErrorCode(rawValue: 4040009)
    public static let transactionIdNotFound = AppStoreAPIErrorCode(rawValue: 4040010)
    public static let imageNotFound = AppStoreAPIErrorCode(rawValue: 4040014)
    public static let messageNotFound = AppStoreAPIErrorCode(rawValue: 4040015)
    public static let performanceTestRunNotFound = AppStoreAPIErrorCode(rawValue: 4040018)
    public static let appTransactionDoesNotExistError = AppStoreAPIErrorCode(rawValue: 4040019)
    public static let defaultMessageNotFound = AppStoreAPIErrorCode(rawValue: 4040020)
    public static let realtimeUrlNotFound = AppStoreAPIErrorCode(rawValue: 4040021)
    public static let imageAlreadyExists = AppStoreAPIErrorCode(rawValue: 4090000)
    public static let messageAlreadyExists = AppStoreAPIErrorCode(rawValue: 4090001)
    public static let rateLimitExceeded = AppStoreAPIErrorCode(rawValue: 4290000)
    public static let generalInternal = AppStoreAPIErrorCode(rawValue: 5000000)
    public static let generalInternalRetryable = AppStoreAPIErrorCode(rawValue: 5000001)
    public static let documented: [AppStoreAPIErrorCode] = [
        .generalBadRequest, .invalidAppIdentifier, .invalidRequestRevision, .invalidTransactionId, .invalidOriginalTransactionId, .invalidExtendByDays,
        .invalidExtendReasonCode, .invalidRequestIdentifier, .startDateTooFarInPast, .startDateAfterEndDate, .invalidPaginationToken, .invalidStartDate,
        .invalidEndDate, .paginationTokenExpired, .invalidNotificationType, .multipleFiltersSupplied, .invalidTestNotificationToken, .invalidSort,
        .invalidProductType, .invalidProductId, .invalidSubscriptionGroupIdentifier, .invalidExcludeRevoked, .invalidInAppOwnershipType, .invalidEmptyStorefrontCountryCodeList,
        .invalidStorefrontCountryCode, .invalidRevoked, .invalidStatus, .invalidAccountTenure, .invalidAppAccountToken, .invalidConsumptionStatus,
        .invalidCustomerConsented, .invalidDeliveryStatus, .invalidLifetimeDollarsPurchased, .invalidLifetimeDollarsRefunded, .invalidPlatform, .invalidPlayTime,
        .invalidSampleContentProvided, .invalidUserStatus, .invalidTransactionNotConsumable, .invalidTransactionTypeNotSupported, .appTransactionIdNotSupported, .invalidImage,
        .headerTooLong, .bodyTooLong, .invalidLocale, .altTextTooLong, .invalidAppAccountTokenUUID, .familyTransactionNotSupported,
        .transactionIdNotOriginalTransactionId, .invalidPerformanceTestRequest, .invalidRequestId, .existingPerformanceTestRun, .badRequestRealtimeUrl, .badRequestImageSize,
        .badRequestTooManyBulletPoints, .badRequestBulletPointTextTooLong, .badRequestAboveImageRequiresAnImage, .subscriptionExtensionIneligible, .subscriptionMaxExtension, .familySharedSubscriptionExtensionIneligible,
        .maximumNumberOfImagesReached, .maximumNumberOfMessagesReached, .messageNotApproved, .imageNotApproved, .imageInUse, .forbiddenNoPassingTest,
        .accountNotFound, .accountNotFoundRetryable, .appNotFound, .appNotFoundRetryable, .originalTransactionIdNotFound, .originalTransactionIdNotFoundRetryable,
        .serverNotificationUrlNotFound, .testNotificationNotFound, .statusRequestNotFound, .transactionIdNotFound, .imageNotFound, .messageNotFound,
        .performanceTestRunNotFound, .appTransactionDoesNotExistError, .defaultMessageNotFound, .realtimeUrlNotFound, .imageAlreadyExists, .messageAlreadyExists,
        .rateLimitExceeded, .generalInternal, .generalInternalRetryable,
    ]
}

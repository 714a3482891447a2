// swift-format-ignore-file
// Generated from the App Store Server API error list (Apple's documentation, as listed in
// app_store_api_error_codes.txt) by generate_error_codes.py beside this file. Generated, do not
// edit.

import SigilAppStore
import SigilBase

/// An App Store Server API errorCode. Unknown codes are kept as their raw value.
public struct AppStoreAPIErrorCode: AppleOpenEnum {
    /// The errorCode as Apple sent it.
    public let rawValue: Int64
    /// Wraps an errorCode as received, documented or not.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// The errorCode 4000000.
    public static let generalBadRequest = AppStoreAPIErrorCode(rawValue: 4000000)
    /// The errorCode 4000002.
    public static let invalidAppIdentifier = AppStoreAPIErrorCode(rawValue: 4000002)
    /// The errorCode 4000005.
    public static let invalidRequestRevision = AppStoreAPIErrorCode(rawValue: 4000005)
    /// The errorCode 4000006.
    public static let invalidTransactionId = AppStoreAPIErrorCode(rawValue: 4000006)
    /// The errorCode 4000008.
    public static let invalidOriginalTransactionId = AppStoreAPIErrorCode(rawValue: 4000008)
    /// The errorCode 4000009.
    public static let invalidExtendByDays = AppStoreAPIErrorCode(rawValue: 4000009)
    /// The errorCode 4000010.
    public static let invalidExtendReasonCode = AppStoreAPIErrorCode(rawValue: 4000010)
    /// The errorCode 4000011.
    public static let invalidRequestIdentifier = AppStoreAPIErrorCode(rawValue: 4000011)
    /// The errorCode 4000012.
    public static let startDateTooFarInPast = AppStoreAPIErrorCode(rawValue: 4000012)
    /// The errorCode 4000013.
    public static let startDateAfterEndDate = AppStoreAPIErrorCode(rawValue: 4000013)
    /// The errorCode 4000014.
    public static let invalidPaginationToken = AppStoreAPIErrorCode(rawValue: 4000014)
    /// The errorCode 4000015.
    public static let invalidStartDate = AppStoreAPIErrorCode(rawValue: 4000015)
    /// The errorCode 4000016.
    public static let invalidEndDate = AppStoreAPIErrorCode(rawValue: 4000016)
    /// The errorCode 4000017.
    public static let paginationTokenExpired = AppStoreAPIErrorCode(rawValue: 4000017)
    /// The errorCode 4000018.
    public static let invalidNotificationType = AppStoreAPIErrorCode(rawValue: 4000018)
    /// The errorCode 4000019.
    public static let multipleFiltersSupplied = AppStoreAPIErrorCode(rawValue: 4000019)
    /// The errorCode 4000020.
    public static let invalidTestNotificationToken = AppStoreAPIErrorCode(rawValue: 4000020)
    /// The errorCode 4000021.
    public static let invalidSort = AppStoreAPIErrorCode(rawValue: 4000021)
    /// The errorCode 4000022.
    public static let invalidProductType = AppStoreAPIErrorCode(rawValue: 4000022)
    /// The errorCode 4000023.
    public static let invalidProductId = AppStoreAPIErrorCode(rawValue: 4000023)
    /// The errorCode 4000024.
    public static let invalidSubscriptionGroupIdentifier = AppStoreAPIErrorCode(rawValue: 4000024)
    /// The errorCode 4000025.
    public static let invalidExcludeRevoked = AppStoreAPIErrorCode(rawValue: 4000025)
    /// The errorCode 4000026.
    public static let invalidInAppOwnershipType = AppStoreAPIErrorCode(rawValue: 4000026)
    /// The errorCode 4000027.
    public static let invalidEmptyStorefrontCountryCodeList = AppStoreAPIErrorCode(rawValue: 4000027)
    /// The errorCode 4000028.
    public static let invalidStorefrontCountryCode = AppStoreAPIErrorCode(rawValue: 4000028)
    /// The errorCode 4000030.
    public static let invalidRevoked = AppStoreAPIErrorCode(rawValue: 4000030)
    /// The errorCode 4000031.
    public static let invalidStatus = AppStoreAPIErrorCode(rawValue: 4000031)
    /// The errorCode 4000032.
    public static let invalidAccountTenure = AppStoreAPIErrorCode(rawValue: 4000032)
    /// The errorCode 4000033.
    public static let invalidAppAccountToken = AppStoreAPIErrorCode(rawValue: 4000033)
    /// The errorCode 4000034.
    public static let invalidConsumptionStatus = AppStoreAPIErrorCode(rawValue: 4000034)
    /// The errorCode 4000035.
    public static let invalidCustomerConsented = AppStoreAPIErrorCode(rawValue: 4000035)
    /// The errorCode 4000036.
    public static let invalidDeliveryStatus = AppStoreAPIErrorCode(rawValue: 4000036)
    /// The errorCode 4000037.
    public static let invalidLifetimeDollarsPurchased = AppStoreAPIErrorCode(rawValue: 4000037)
    /// The errorCode 4000038.
    public static let invalidLifetimeDollarsRefunded = AppStoreAPIErrorCode(rawValue: 4000038)
    /// The errorCode 4000039.
    public static let invalidPlatform = AppStoreAPIErrorCode(rawValue: 4000039)
    /// The errorCode 4000040.
    public static let invalidPlayTime = AppStoreAPIErrorCode(rawValue: 4000040)
    /// The errorCode 4000041.
    public static let invalidSampleContentProvided = AppStoreAPIErrorCode(rawValue: 4000041)
    /// The errorCode 4000042.
    public static let invalidUserStatus = AppStoreAPIErrorCode(rawValue: 4000042)
    /// The errorCode 4000043; Apple has deprecated it.
    public static let invalidTransactionNotConsumable = AppStoreAPIErrorCode(rawValue: 4000043)  // deprecated
    /// The errorCode 4000047.
    public static let invalidTransactionTypeNotSupported = AppStoreAPIErrorCode(rawValue: 4000047)
    /// The errorCode 4000048.
    public static let appTransactionIdNotSupported = AppStoreAPIErrorCode(rawValue: 4000048)
    /// The errorCode 4000161.
    public static let invalidImage = AppStoreAPIErrorCode(rawValue: 4000161)
    /// The errorCode 4000162.
    public static let headerTooLong = AppStoreAPIErrorCode(rawValue: 4000162)
    /// The errorCode 4000163.
    public static let bodyTooLong = AppStoreAPIErrorCode(rawValue: 4000163)
    /// The errorCode 4000164.
    public static let invalidLocale = AppStoreAPIErrorCode(rawValue: 4000164)
    /// The errorCode 4000175.
    public static let altTextTooLong = AppStoreAPIErrorCode(rawValue: 4000175)
    /// The errorCode 4000183.
    public static let invalidAppAccountTokenUUID = AppStoreAPIErrorCode(rawValue: 4000183)
    /// The errorCode 4000185.
    public static let familyTransactionNotSupported = AppStoreAPIErrorCode(rawValue: 4000185)
    /// The errorCode 4000187.
    public static let transactionIdNotOriginalTransactionId = AppStoreAPIErrorCode(rawValue: 4000187)
    /// The errorCode 4000211.
    public static let invalidPerformanceTestRequest = AppStoreAPIErrorCode(rawValue: 4000211)
    /// The errorCode 4000212.
    public static let invalidRequestId = AppStoreAPIErrorCode(rawValue: 4000212)
    /// The errorCode 4000213.
    public static let existingPerformanceTestRun = AppStoreAPIErrorCode(rawValue: 4000213)
    /// The errorCode 4000215.
    public static let badRequestRealtimeUrl = AppStoreAPIErrorCode(rawValue: 4000215)
    /// The errorCode 4000216.
    public static let badRequestImageSize = AppStoreAPIErrorCode(rawValue: 4000216)
    /// The errorCode 4000218.
    public static let badRequestTooManyBulletPoints = AppStoreAPIErrorCode(rawValue: 4000218)
    /// The errorCode 4000219.
    public static let badRequestBulletPointTextTooLong = AppStoreAPIErrorCode(rawValue: 4000219)
    /// The errorCode 4000224.
    public static let badRequestAboveImageRequiresAnImage = AppStoreAPIErrorCode(rawValue: 4000224)
    /// The errorCode 4030004.
    public static let subscriptionExtensionIneligible = AppStoreAPIErrorCode(rawValue: 4030004)
    /// The errorCode 4030005.
    public static let subscriptionMaxExtension = AppStoreAPIErrorCode(rawValue: 4030005)
    /// The errorCode 4030007.
    public static let familySharedSubscriptionExtensionIneligible = AppStoreAPIErrorCode(rawValue: 4030007)
    /// The errorCode 4030014.
    public static let maximumNumberOfImagesReached = AppStoreAPIErrorCode(rawValue: 4030014)
    /// The errorCode 4030016.
    public static let maximumNumberOfMessagesReached = AppStoreAPIErrorCode(rawValue: 4030016)
    /// The errorCode 4030017.
    public static let messageNotApproved = AppStoreAPIErrorCode(rawValue: 4030017)
    /// The errorCode 4030018.
    public static let imageNotApproved = AppStoreAPIErrorCode(rawValue: 4030018)
    /// The errorCode 4030019.
    public static let imageInUse = AppStoreAPIErrorCode(rawValue: 4030019)
    /// The errorCode 4030026.
    public static let forbiddenNoPassingTest = AppStoreAPIErrorCode(rawValue: 4030026)
    /// The errorCode 4040001.
    public static let accountNotFound = AppStoreAPIErrorCode(rawValue: 4040001)
    /// The errorCode 4040002.
    public static let accountNotFoundRetryable = AppStoreAPIErrorCode(rawValue: 4040002)
    /// The errorCode 4040003.
    public static let appNotFound = AppStoreAPIErrorCode(rawValue: 4040003)
    /// The errorCode 4040004.
    public static let appNotFoundRetryable = AppStoreAPIErrorCode(rawValue: 4040004)
    /// The errorCode 4040005.
    public static let originalTransactionIdNotFound = AppStoreAPIErrorCode(rawValue: 4040005)
    /// The errorCode 4040006.
    public static let originalTransactionIdNotFoundRetryable = AppStoreAPIErrorCode(rawValue: 4040006)
    /// The errorCode 4040007.
    public static let serverNotificationUrlNotFound = AppStoreAPIErrorCode(rawValue: 4040007)
    /// The errorCode 4040008.
    public static let testNotificationNotFound = AppStoreAPIErrorCode(rawValue: 4040008)
    /// The errorCode 4040009.
    public static let statusRequestNotFound = AppStoreAPIErrorCode(rawValue: 4040009)
    /// The errorCode 4040010.
    public static let transactionIdNotFound = AppStoreAPIErrorCode(rawValue: 4040010)
    /// The errorCode 4040014.
    public static let imageNotFound = AppStoreAPIErrorCode(rawValue: 4040014)
    /// The errorCode 4040015.
    public static let messageNotFound = AppStoreAPIErrorCode(rawValue: 4040015)
    /// The errorCode 4040018.
    public static let performanceTestRunNotFound = AppStoreAPIErrorCode(rawValue: 4040018)
    /// The errorCode 4040019.
    public static let appTransactionDoesNotExistError = AppStoreAPIErrorCode(rawValue: 4040019)
    /// The errorCode 4040020.
    public static let defaultMessageNotFound = AppStoreAPIErrorCode(rawValue: 4040020)
    /// The errorCode 4040021.
    public static let realtimeUrlNotFound = AppStoreAPIErrorCode(rawValue: 4040021)
    /// The errorCode 4090000.
    public static let imageAlreadyExists = AppStoreAPIErrorCode(rawValue: 4090000)
    /// The errorCode 4090001.
    public static let messageAlreadyExists = AppStoreAPIErrorCode(rawValue: 4090001)
    /// The errorCode 4290000.
    public static let rateLimitExceeded = AppStoreAPIErrorCode(rawValue: 4290000)
    /// The errorCode 5000000.
    public static let generalInternal = AppStoreAPIErrorCode(rawValue: 5000000)
    /// The errorCode 5000001.
    public static let generalInternalRetryable = AppStoreAPIErrorCode(rawValue: 5000001)
    /// The codes Apple documents.
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

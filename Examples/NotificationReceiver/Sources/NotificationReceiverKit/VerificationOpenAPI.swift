/// The OpenAPI 3.1 document of the verification routes, served at `GET /v1/openapi.json`. Its
/// `VerificationRequest` schema is Conformance/verification-request.schema.json (the test
/// VerificationServiceTests compares them), and each real answer of the conformance file is checked
/// against its response schemas.
enum VerificationOpenAPI {
    static let document = #"""
        {
         "openapi": "3.1.0",
         "info": {
          "title": "Sigil verification service",
          "version": "1",
          "description": "Verification of App Store signed data, app receipts and App Attest objects (stateless), and of Apple Pay payment tokens (kind applepay: verified, decrypted with the service's configured merchant keys and recorded in its replay store), and of ISO/IEC 18013-5 mobile documents (kind mdoc, under the request's IACA roots or the service's --mdoc-iaca roots). The request and answer documents are those of Sigil's C ABI and Python package, byte for byte; those doors answer applepay service.notConfigured."
         },
         "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
         "paths": {
          "/v1/verify": {
           "post": {
            "operationId": "verify",
            "security": [
             {
              "apiKey": []
             },
             {}
            ],
            "requestBody": {
             "required": true,
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/VerificationRequest"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "The data verified",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/VerifiedAnswer"
                }
               }
              }
             },
             "400": {
              "description": "The request was malformed (request.*)",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/FailureAnswer"
                }
               }
              }
             },
             "401": {
              "description": "The service has an API key and the request did not carry it as Authorization: Bearer <key> (http.unauthorized); nothing was read or verified",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/FailureAnswer"
                }
               }
              }
             },
             "403": {
              "description": "The request brought trust configuration (roots not Apple's, environments [\"Xcode\"], unpinnedTestRoot) and the service refuses it: request.trustRefused (the notification receiver without --accept-request-trust; verification-service --refuse-request-trust)",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/FailureAnswer"
                }
               }
              }
             },
             "408": {
              "description": "The body did not arrive in time (http.requestTimeout)",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/FailureAnswer"
                }
               }
              }
             },
             "413": {
              "description": "The body is over the limit, 1 MiB by default (request.tooLarge)",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/FailureAnswer"
                }
               }
              }
             },
             "415": {
              "description": "The body is not application/json (http.unsupportedMediaType)",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/FailureAnswer"
                }
               }
              }
             },
             "422": {
              "description": "The verifier refused the data (applepay.replayedTransaction: another request carried a token with the same replayKey before)",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/FailureAnswer"
                }
               }
              }
             },
             "501": {
              "description": "The kind needs configuration the service was not given (service.notConfigured: applepay without merchant keys, mdoc without IACA roots)",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/FailureAnswer"
                }
               }
              }
             },
             "503": {
              "description": "The Apple Pay replay store did not answer (service.replayStoreUnavailable): nothing was accepted, the request may be sent again",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/FailureAnswer"
                }
               }
              }
             }
            }
           }
          },
          "/health": {
           "get": {
            "operationId": "health",
            "responses": {
             "200": {
              "description": "Serving",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Health"
                }
               }
              }
             }
            }
           }
          },
          "/v1/openapi.json": {
           "get": {
            "operationId": "openapi",
            "responses": {
             "200": {
              "description": "This document",
              "content": {
               "application/json": {}
              }
             }
            }
           }
          }
         },
         "components": {
          "securitySchemes": {
           "apiKey": {
            "type": "http",
            "scheme": "bearer",
            "description": "The service's API key (verification-service --api-key-file or VERIFICATION_API_KEY; the receiver's RECEIVER_API_KEY). Required on POST /v1/verify when one is configured."
           }
          },
          "schemas": {
           "VerificationRequest": {
            "title": "Sigil verification request",
            "description": "The one request document of every door: sigil_verify (C), sigil.verify (Python), POST /v1/verify (HTTP). A request this schema refuses is answered {\"valid\": false, \"error\": {\"code\": \"request.*\"}} (HTTP 400, or 413 over the size limit); null stands for an absent member. Members a kind does not use are refused, never ignored. Trust configuration: roots, environments [\"Xcode\"] and unpinnedTestRoot choose the anchor the data is verified under; every valid answer names that anchor in \"trust\" (apple, request-roots, xcode, unpinned-test-root, attested-key, configured-roots, iaca-roots) and lists \"appleRoot\" in notEnforced when it is not Apple's root for the kind (mdoc has no Apple root: it lists \"iacaRoots\" for request roots instead). A service that refuses request trust (the notification receiver by default; verification-service --refuse-request-trust) answers such a request request.trustRefused (HTTP 403); roots that are exactly Apple's root for the kind pass.",
            "type": "object",
            "additionalProperties": false,
            "required": [
             "data"
            ],
            "properties": {
             "kind": {
              "description": "What data is (default auto: App Store signed data whose kind its members tell; a payload that fits several kinds is refused, never guessed).",
              "enum": [
               "auto",
               "transaction",
               "renewal-info",
               "notification",
               "app-transaction",
               "realtime-request",
               "receipt",
               "attestation",
               "assertion",
               "applepay",
               "mdoc",
               null
              ]
             },
             "data": {
              "description": "The JWS compact text (spaces and line breaks around it, such as a file's last line break, are not part of it), base64 of the receipt or of the App Attest CBOR object (white space ignored), for applepay the payment token's JSON text (its paymentData, or a whole PKPaymentToken), or for mdoc base64 of the ISO/IEC 18013-5 DeviceResponse (ProximityReader's responseData, or an opened 18013-7 Annex C answer).",
              "type": "string",
              "minLength": 1
             },
             "bundleId": {
              "description": "The app's bundle id: enforced unless reportOnly; for App Attest part of the App ID.",
              "type": [
               "string",
               "null"
              ],
              "minLength": 1,
              "maxLength": 255
             },
             "appAppleId": {
              "description": "The app's Apple id, needed to enforce the identity of Production App Store data.",
              "type": [
               "integer",
               "null"
              ],
              "minimum": 1,
              "maximum": 9223372036854775807
             },
             "environments": {
              "description": "The environments accepted (always enforced): Production and/or Sandbox, or Xcode alone (trust configuration: Xcode's StoreKit testing certificate, the one root given or the one the data carries, is the anchor; trust xcode, appleRoot not enforced), for App Store data and receipts (default Production and Sandbox; Sandbox only when bundleId is enforced without appAppleId); production or development for an attestation (default production).",
              "type": [
               "array",
               "null"
              ],
              "minItems": 1,
              "maxItems": 4,
              "items": {
               "type": "string",
               "minLength": 1,
               "maxLength": 32
              }
             },
             "roots": {
              "description": "Trust configuration: the root certificates the data must chain to instead of Apple's, each PEM text or base64 of DER. Absent: Apple's root for the kind (App Store data: Apple Root CA - G3, built in; receipts: Apple Inc. Root Certificate, attestations: the Apple App Attestation Root CA, pinned, both from the service's roots directory). Roots that are exactly Apple's root for the kind by SHA-256 fingerprint answer trust apple; any other answers trust request-roots with appleRoot in notEnforced, or request.trustRefused where the service refuses request trust. For mdoc, the IACA roots (no Apple root; absent: the service's configured IACA roots, or service.notConfigured). With environments [\"Xcode\"], one root only: Xcode's certificate (more is refused, never cut to the first). An attestation takes one root, the App Attest root unless unpinnedTestRoot.",
              "type": [
               "array",
               "null"
              ],
              "minItems": 1,
              "maxItems": 8,
              "items": {
               "type": "string",
               "minLength": 1,
               "maxLength": 65536
              }
             },
             "at": {
              "description": "The validation time, seconds since 1970 (default: the payload's signedDate, the receipt's creation date, now for an attestation, an mdoc or an Apple Pay token, whose signing time must lie within the service's window of it). An at more than 60 seconds from the service's clock is a relaxation the answer lists as \"at\" in notEnforced.",
              "type": [
               "integer",
               "null"
              ],
              "minimum": 0,
              "maximum": 253402300799
             },
             "reportOnly": {
              "description": "The bundle id (and app Apple id) reported, not enforced, by name.",
              "type": [
               "boolean",
               "null"
              ]
             },
             "teamId": {
              "description": "App Attest: the team id of the App ID.",
              "type": [
               "string",
               "null"
              ],
              "minLength": 1,
              "maxLength": 64
             },
             "clientData": {
              "description": "App Attest: the client data (base64); its SHA-256 is the client data hash.",
              "type": [
               "string",
               "null"
              ],
              "contentEncoding": "base64"
             },
             "clientDataHash": {
              "description": "App Attest: the client data hash (base64).",
              "type": [
               "string",
               "null"
              ],
              "contentEncoding": "base64"
             },
             "keyId": {
              "description": "Attestation: the key id the app sent (base64), checked when given.",
              "type": [
               "string",
               "null"
              ],
              "contentEncoding": "base64"
             },
             "publicKey": {
              "description": "Assertion: the attested key, X9.62 uncompressed (base64), as the attestation's answer gives it.",
              "type": [
               "string",
               "null"
              ],
              "contentEncoding": "base64"
             },
             "counter": {
              "description": "Assertion: the counter stored for the key (0 after the attestation).",
              "type": [
               "integer",
               "null"
              ],
              "minimum": 0,
              "maximum": 4294967295
             },
             "unpinnedTestRoot": {
              "description": "Trust configuration, attestation only: trust roots[0] (required) without the App Attest root's pin; answers trust unpinned-test-root with appleRoot in notEnforced unless roots[0] is the Apple App Attestation Root CA. Test PKIs only.",
              "type": [
               "boolean",
               "null"
              ]
             },
             "sessionTranscript": {
              "description": "mdoc (required): the session's SessionTranscript, CBOR (tag 24 around it, or the bare array), base64, as ProximityReader's sessionTranscript or an Annex C request's transcript.",
              "type": [
               "string",
               "null"
              ],
              "maxLength": 87384,
              "contentEncoding": "base64"
             },
             "ephemeralReaderKey": {
              "description": "mdoc: the reader's ephemeral key of the session, base64 of any form (raw scalar, x9.63, SEC 1, PKCS#8, SPKI, PEM, COSE_Key). A private key checks a deviceMac; without one a deviceMac is refused (mdoc.deviceMACNotVerifiable) unless acceptUnverifiedDeviceMAC.",
              "type": [
               "string",
               "null"
              ],
              "maxLength": 10924,
              "contentEncoding": "base64"
             },
             "acceptUnverifiedDeviceMAC": {
              "description": "mdoc, a named relaxation: a deviceMac that cannot be checked is accepted, the document reported deviceMacNotVerified and deviceAuthentication listed in notEnforced.",
              "type": [
               "boolean",
               "null"
              ]
             },
             "values": {
              "description": "mdoc: each element's value in the answer (personal data; absent or false: names and kinds only).",
              "type": [
               "boolean",
               "null"
              ]
             }
            },
            "$defs": {
             "appStoreEnvironments": {
              "anyOf": [
               {
                "properties": {
                 "environments": {
                  "type": "null"
                 }
                }
               },
               {
                "properties": {
                 "environments": {
                  "const": [
                   "Xcode"
                  ]
                 }
                }
               },
               {
                "properties": {
                 "environments": {
                  "items": {
                   "enum": [
                    "Production",
                    "Sandbox"
                   ]
                  }
                 }
                }
               }
              ]
             },
             "noAppAttestMembers": {
              "properties": {
               "teamId": {
                "type": "null"
               },
               "clientData": {
                "type": "null"
               },
               "clientDataHash": {
                "type": "null"
               },
               "keyId": {
                "type": "null"
               },
               "publicKey": {
                "type": "null"
               },
               "counter": {
                "type": "null"
               },
               "unpinnedTestRoot": {
                "enum": [
                 false,
                 null
                ]
               }
              }
             },
             "noMdocMembers": {
              "properties": {
               "sessionTranscript": {
                "type": "null"
               },
               "ephemeralReaderKey": {
                "type": "null"
               },
               "acceptUnverifiedDeviceMAC": {
                "enum": [
                 false,
                 null
                ]
               },
               "values": {
                "enum": [
                 false,
                 null
                ]
               }
              }
             },
             "appAttest": {
              "required": [
               "teamId",
               "bundleId"
              ],
              "properties": {
               "teamId": {
                "type": "string"
               },
               "bundleId": {
                "type": "string"
               },
               "appAppleId": {
                "type": "null"
               },
               "reportOnly": {
                "enum": [
                 false,
                 null
                ]
               }
              },
              "oneOf": [
               {
                "required": [
                 "clientData"
                ],
                "properties": {
                 "clientData": {
                  "type": "string"
                 },
                 "clientDataHash": {
                  "type": "null"
                 }
                }
               },
               {
                "required": [
                 "clientDataHash"
                ],
                "properties": {
                 "clientDataHash": {
                  "type": "string"
                 },
                 "clientData": {
                  "type": "null"
                 }
                }
               }
              ]
             }
            },
            "allOf": [
             {
              "if": {
               "properties": {
                "kind": {
                 "const": "attestation"
                }
               },
               "required": [
                "kind"
               ]
              },
              "then": {
               "allOf": [
                {
                 "$ref": "#/components/schemas/VerificationRequest/$defs/appAttest"
                },
                {
                 "if": {
                  "properties": {
                   "unpinnedTestRoot": {
                    "const": true
                   }
                  },
                  "required": [
                   "unpinnedTestRoot"
                  ]
                 },
                 "then": {
                  "required": [
                   "roots"
                  ],
                  "properties": {
                   "roots": {
                    "type": "array"
                   }
                  }
                 }
                }
               ],
               "properties": {
                "roots": {
                 "anyOf": [
                  {
                   "type": "null"
                  },
                  {
                   "type": "array",
                   "maxItems": 1
                  }
                 ]
                },
                "environments": {
                 "anyOf": [
                  {
                   "type": "null"
                  },
                  {
                   "type": "array",
                   "maxItems": 1,
                   "items": {
                    "enum": [
                     "production",
                     "development"
                    ]
                   }
                  }
                 ]
                },
                "publicKey": {
                 "type": "null"
                },
                "counter": {
                 "type": "null"
                }
               }
              }
             },
             {
              "if": {
               "properties": {
                "kind": {
                 "const": "assertion"
                }
               },
               "required": [
                "kind"
               ]
              },
              "then": {
               "allOf": [
                {
                 "$ref": "#/components/schemas/VerificationRequest/$defs/appAttest"
                }
               ],
               "required": [
                "publicKey"
               ],
               "properties": {
                "publicKey": {
                 "type": "string"
                },
                "keyId": {
                 "type": "null"
                },
                "unpinnedTestRoot": {
                 "enum": [
                  false,
                  null
                 ]
                },
                "roots": {
                 "type": "null"
                },
                "environments": {
                 "type": "null"
                }
               }
              }
             },
             {
              "if": {
               "properties": {
                "kind": {
                 "const": "receipt"
                }
               },
               "required": [
                "kind"
               ]
              },
              "then": {
               "allOf": [
                {
                 "$ref": "#/components/schemas/VerificationRequest/$defs/noAppAttestMembers"
                },
                {
                 "$ref": "#/components/schemas/VerificationRequest/$defs/appStoreEnvironments"
                }
               ],
               "properties": {
                "appAppleId": {
                 "type": "null"
                }
               }
              }
             },
             {
              "if": {
               "properties": {
                "kind": {
                 "const": "applepay"
                }
               },
               "required": [
                "kind"
               ]
              },
              "then": {
               "description": "Apple Pay: the merchant keys, trusted roots and replay store are the service's configuration, never the request's; a door without them answers service.notConfigured.",
               "properties": {
                "bundleId": {
                 "type": "null"
                },
                "appAppleId": {
                 "type": "null"
                },
                "environments": {
                 "type": "null"
                },
                "roots": {
                 "type": "null"
                },
                "reportOnly": {
                 "enum": [
                  false,
                  null
                 ]
                }
               }
              }
             },
             {
              "if": {
               "properties": {
                "kind": {
                 "const": "mdoc"
                }
               },
               "required": [
                "kind"
               ]
              },
              "then": {
               "description": "mdoc: the IACA roots are the request's roots (trust configuration: trust request-roots with iacaRoots in notEnforced, or request.trustRefused where the service refuses request trust, unless each is one of the service's configured IACA roots, trust iaca-roots) or the service's (trust iaca-roots); a door with neither answers service.notConfigured, and so do Embedded builds (sigil.wasm), which have no mdoc.",
               "required": [
                "sessionTranscript"
               ],
               "properties": {
                "sessionTranscript": {
                 "type": "string"
                },
                "bundleId": {
                 "type": "null"
                },
                "appAppleId": {
                 "type": "null"
                },
                "environments": {
                 "type": "null"
                },
                "reportOnly": {
                 "enum": [
                  false,
                  null
                 ]
                }
               }
              },
              "else": {
               "$ref": "#/components/schemas/VerificationRequest/$defs/noMdocMembers"
              }
             },
             {
              "if": {
               "properties": {
                "environments": {
                 "const": [
                  "Xcode"
                 ]
                }
               },
               "required": [
                "environments"
               ]
              },
              "then": {
               "properties": {
                "roots": {
                 "anyOf": [
                  {
                   "type": "null"
                  },
                  {
                   "type": "array",
                   "maxItems": 1
                  }
                 ]
                }
               }
              }
             },
             {
              "if": {
               "properties": {
                "kind": {
                 "enum": [
                  "receipt",
                  "attestation",
                  "assertion"
                 ]
                }
               },
               "required": [
                "kind"
               ]
              },
              "else": {
               "allOf": [
                {
                 "$ref": "#/components/schemas/VerificationRequest/$defs/noAppAttestMembers"
                },
                {
                 "$ref": "#/components/schemas/VerificationRequest/$defs/appStoreEnvironments"
                }
               ]
              }
             }
            ]
           },
           "VerifiedAnswer": {
            "type": "object",
            "required": [
             "valid",
             "kind",
             "trust",
             "notEnforced"
            ],
            "additionalProperties": false,
            "properties": {
             "valid": {
              "const": true
             },
             "kind": {
              "enum": [
               "transaction",
               "renewal-info",
               "notification",
               "app-transaction",
               "realtime-request",
               "receipt",
               "attestation",
               "assertion",
               "applepay",
               "mdoc"
              ]
             },
             "environment": {
              "type": "string",
              "description": "Production, Sandbox or Xcode (App Store data, receipts); production or development (attestations)"
             },
             "trust": {
              "enum": [
               "apple",
               "request-roots",
               "xcode",
               "unpinned-test-root",
               "attested-key",
               "configured-roots",
               "iaca-roots"
              ],
              "description": "The anchor the data was verified under (issue 46): apple (Apple's root for the kind: built in, installed, or request roots that are exactly it by fingerprint), request-roots (roots the request supplied that are not Apple's), xcode (Xcode's StoreKit testing certificate), unpinned-test-root (an attestation's root without the App Attest pin), attested-key (an assertion: the key the caller stored), configured-roots (applepay: the service's configured test roots), iaca-roots (mdoc: the service's configured IACA roots). Every anchor but apple, attested-key and iaca-roots lists appleRoot in notEnforced; an mdoc has no Apple root and lists iacaRoots instead under request-roots."
             },
             "payload": {
              "type": "object",
              "description": "The App Store payload exactly as signed (Apple's members and numbers)"
             },
             "receipt": {
              "type": "object",
              "required": [
               "inApp"
              ],
              "properties": {
               "receiptType": {
                "type": "string"
               },
               "bundleId": {
                "type": "string"
               },
               "appItemId": {
                "type": "integer"
               },
               "applicationVersion": {
                "type": "string"
               },
               "originalApplicationVersion": {
                "type": "string"
               },
               "creationDate": {
                "type": "integer"
               },
               "originalPurchaseDate": {
                "type": "integer"
               },
               "expirationDate": {
                "type": "integer"
               },
               "inApp": {
                "type": "array",
                "items": {
                 "type": "object"
                }
               }
              },
              "additionalProperties": false
             },
             "attestation": {
              "type": "object",
              "required": [
               "appId",
               "keyId",
               "publicKey",
               "counter",
               "receipt"
              ],
              "properties": {
               "appId": {
                "type": "string"
               },
               "keyId": {
                "type": "string"
               },
               "publicKey": {
                "type": "string"
               },
               "counter": {
                "type": "integer"
               },
               "osVersion": {
                "type": "string"
               },
               "validationCategory": {
                "type": "integer"
               },
               "bundleVersion": {
                "type": "string"
               },
               "receipt": {
                "type": "string"
               }
              },
              "additionalProperties": false
             },
             "assertion": {
              "type": "object",
              "required": [
               "counter"
              ],
              "properties": {
               "counter": {
                "type": "integer"
               },
               "validationCategory": {
                "type": "integer"
               },
               "bundleVersion": {
                "type": "string"
               }
              },
              "additionalProperties": false
             },
             "notEnforced": {
              "type": "array",
              "items": {
               "type": "string"
              },
              "description": "Each check the request relaxed, by name: bundleId, appAppleId, validationCategory, bundleVersion, transactionId, replayKey (applepay without replay protection), appleRoot (the anchor is not Apple's root), iacaRoots (mdoc: the IACA roots were the request's, not the service's), deviceAuthentication (mdoc: a deviceMac accepted unchecked), at (the request's at is more than 60 s from the service's clock)."
             },
             "applepay": {
              "type": "object",
              "description": "A verified, decrypted Apple Pay token whose replayKey the replay store recorded now (retry false), or recorded for this identical request body before (retry true, firstAcceptedAt: a retry, not a second payment). Without replay protection retry is absent and notEnforced is [\"replayKey\"]. payment is the decrypted payment data as Apple wrote it: secret card data, never logged by the service.",
              "required": [
               "version",
               "transactionId",
               "replayKey",
               "publicKeyHash",
               "signingTime",
               "paymentDataType",
               "payment"
              ],
              "properties": {
               "version": {
                "enum": [
                 "EC_v1",
                 "RSA_v1"
                ]
               },
               "transactionId": {
                "type": "string",
                "description": "hex, 32 bytes"
               },
               "replayKey": {
                "type": "string",
                "description": "SHA-256 of the content Apple signed, hex: the replay store's key"
               },
               "publicKeyHash": {
                "type": "string",
                "description": "base64"
               },
               "signingTime": {
                "type": "integer"
               },
               "applicationData": {
                "type": "string",
                "description": "hex"
               },
               "paymentDataType": {
                "type": "string"
               },
               "payment": {
                "type": "object"
               },
               "retry": {
                "type": "boolean"
               },
               "firstAcceptedAt": {
                "type": "integer"
               }
              },
              "additionalProperties": false
             },
             "response": {
              "type": "object",
              "description": "mdoc: the verified ISO/IEC 18013-5 DeviceResponse",
              "required": [
               "version",
               "status",
               "documentErrors",
               "documents"
              ],
              "additionalProperties": false,
              "properties": {
               "version": {
                "type": "string"
               },
               "status": {
                "type": "integer"
               },
               "documentErrors": {
                "type": "object",
                "additionalProperties": {
                 "type": "integer"
                },
                "description": "docType → error code, as the mdoc reported them"
               },
               "documents": {
                "type": "array",
                "items": {
                 "type": "object",
                 "additionalProperties": false,
                 "required": [
                  "docType",
                  "deviceAuthentication",
                  "deviceAuthenticated",
                  "digestAlgorithm",
                  "validityInfo",
                  "issuerChain",
                  "issuerSigned",
                  "deviceSigned",
                  "elementErrors"
                 ],
                 "properties": {
                  "docType": {
                   "type": "string"
                  },
                  "deviceAuthentication": {
                   "enum": [
                    "deviceSignature",
                    "deviceMac",
                    "deviceMacNotVerified"
                   ]
                  },
                  "deviceAuthenticated": {
                   "type": "boolean"
                  },
                  "digestAlgorithm": {
                   "type": "string"
                  },
                  "validityInfo": {
                   "type": "object",
                   "required": [
                    "signed",
                    "validFrom",
                    "validUntil"
                   ],
                   "additionalProperties": false,
                   "properties": {
                    "signed": {
                     "type": "string"
                    },
                    "validFrom": {
                     "type": "string"
                    },
                    "validUntil": {
                     "type": "string"
                    },
                    "expectedUpdate": {
                     "type": "string"
                    }
                   },
                   "description": "The MSO's times, RFC 3339 as signed"
                  },
                  "issuerChain": {
                   "type": "array",
                   "items": {
                    "type": "string"
                   },
                   "description": "The document signer's chain, subjects (RFC 4514)"
                  },
                  "issuerSigned": {
                   "type": "array",
                   "items": {
                    "$ref": "#/components/schemas/MdocElement"
                   }
                  },
                  "deviceSigned": {
                   "type": "array",
                   "items": {
                    "$ref": "#/components/schemas/MdocElement"
                   }
                  },
                  "elementErrors": {
                   "type": "object",
                   "additionalProperties": {
                    "type": "object",
                    "additionalProperties": {
                     "type": "integer"
                    }
                   }
                  }
                 }
                }
               }
              }
             }
            },
            "oneOf": [
             {
              "required": [
               "payload"
              ]
             },
             {
              "required": [
               "receipt"
              ]
             },
             {
              "required": [
               "attestation"
              ]
             },
             {
              "required": [
               "assertion"
              ]
             },
             {
              "required": [
               "applepay"
              ]
             },
             {
              "required": [
               "response"
              ]
             }
            ]
           },
           "FailureAnswer": {
            "type": "object",
            "required": [
             "valid",
             "error"
            ],
            "additionalProperties": false,
            "properties": {
             "valid": {
              "const": false
             },
             "error": {
              "type": "object",
              "required": [
               "code",
               "message",
               "failures"
              ],
              "additionalProperties": false,
              "properties": {
               "code": {
                "type": "string",
                "description": "domain.code: request.* (the request was wrong: 400, 413; service.notConfigured: 501), http.* (the HTTP exchange: 401, 408, 415), service.replayStoreUnavailable (503), or the verifier's (appstore.*, pkcs7.*, appattest.*, applepay.*, mdoc.*: 422)"
               },
               "message": {
                "type": "string"
               },
               "failures": {
                "type": "array",
                "items": {
                 "type": "object",
                 "required": [
                  "reason",
                  "rule"
                 ],
                 "additionalProperties": false,
                 "properties": {
                  "reason": {
                   "type": "string"
                  },
                  "rule": {
                   "type": "string"
                  }
                 }
                }
               }
              }
             }
            }
           },
           "Health": {
            "type": "object",
            "required": [
             "status",
             "version"
            ],
            "additionalProperties": false,
            "properties": {
             "status": {
              "const": "ok"
             },
             "version": {
              "type": "string"
             }
            }
           },
           "MdocElement": {
            "type": "object",
            "required": [
             "nameSpace",
             "identifier",
             "kind"
            ],
            "additionalProperties": false,
            "properties": {
             "nameSpace": {
              "type": "string"
             },
             "identifier": {
              "type": "string"
             },
             "kind": {
              "type": "string",
              "description": "text, byte string, integer, boolean, float, null, full-date, tdate, array, map, tag N around …, integer beyond 64 bits"
             },
             "value": {
              "description": "Only when the request set values (personal data): text, integers, booleans and null as themselves, byte strings base64, dates as their text, arrays and maps recursively"
             }
            }
           }
          }
         }
        }
        """#
}

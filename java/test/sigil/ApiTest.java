package sigil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;

import org.junit.jupiter.api.Test;

/** The typed API on the shared real data: each kind's facts, its refusals, and tokens checked by the JDK. */
class ApiTest {
    private static final String APPLE = "sigil.test.apple";

    private static String text(String property, String path) throws Exception {
        return TestData.text(TestData.path(property, path));
    }

    @Test
    void transactionEnforced() throws Exception {
        Transaction t = Sigil.verifyTransaction(text(APPLE, "real/jws/Doy-lee-session-pro-backend/transaction-2000001024998954-20251001T070838.jws").trim(),
                Options.builder().bundleId("com.loki-project.loki-messenger").environments("Sandbox").build());
        assertEquals("transaction", t.kind());
        assertEquals("Sandbox", t.environment());
        assertEquals("apple", t.trust());
        assertTrue(t.notEnforced().isEmpty());
        assertEquals("2000001024998954", t.transactionId());
        assertEquals("2000001024993299", t.originalTransactionId());
        assertEquals("Auto-Renewable Subscription", t.type());
        assertEquals(Long.valueOf(1759302732000L), t.expiresDate());
        assertEquals(t.payload().json(), t.payloadJson());
        assertTrue(t.answerJson().contains(t.payloadJson()));
        assertThrows(UnsupportedOperationException.class, () -> t.notEnforced().add("x"));
    }

    @Test
    void aChainFailureCarriesItsTypedFailures() throws Exception {
        byte[] incRoot = Files.readAllBytes(TestData.path(APPLE, "real/apple-pki/AppleIncRootCertificate.cer"));
        SigilVerificationException refused = assertThrows(SigilVerificationException.class, () -> Sigil.verifySignedData(
                HostileInputTest.realJws(), Options.builder().roots(incRoot).build()));
        assertEquals("appstore.VERIFICATION_FAILURE", refused.code());
        assertFalse(refused.message().isEmpty());
        assertFalse(refused.failures().isEmpty());
        for (Failure failure : refused.failures()) {
            assertNotNull(failure.reason());
            assertTrue(failure.rule().startsWith("RFC 5280"), failure.rule());
        }
        assertEquals("appstore.VERIFICATION_FAILURE: " + refused.message(), refused.getMessage());
    }

    @Test
    void notificationWithItsNestedDataVerified() throws Exception {
        Options options = Options.builder().bundleId("com.loki-project.loki-messenger").environments("Sandbox").build();
        Notification n = Sigil.verifyNotification(text(APPLE, "real/jws/Doy-lee-session-pro-backend/notification-DID_RENEW-20251001T070838.jws"), options);
        assertEquals("notification", n.kind());
        assertEquals("DID_RENEW", n.notificationType());
        assertEquals("com.loki-project.loki-messenger", n.bundleId());
        assertEquals(Long.valueOf(1470168868L), n.appAppleId());
        assertNotNull(n.transaction());
        assertEquals("transaction", n.transaction().kind());
        assertEquals("2000001024998954", n.transaction().transactionId());
        assertNotNull(n.renewalInfo());
        assertEquals("renewal-info", n.renewalInfo().kind());
        assertEquals(n.transaction().originalTransactionId(), n.renewalInfo().originalTransactionId());
        // The nested data is held to the same options: another app's bundle id refuses it all.
        assertEquals("appstore.INVALID_APP_IDENTIFIER", assertThrows(SigilVerificationException.class, () -> Sigil.verifyNotification(
                text(APPLE, "real/jws/Doy-lee-session-pro-backend/notification-DID_RENEW-20251001T070838.jws"),
                Options.builder().bundleId("com.example.other").build())).code());
    }

    @Test
    void renewalInfo() throws Exception {
        RenewalInfo r = Sigil.verifyRenewalInfo(text(APPLE, "real/jws/awa-go-iap/sandbox-renewalinfo-2023-05-23.jws").trim(), null);
        assertEquals("2000000335310644", r.originalTransactionId());
        assertEquals(Long.valueOf(1L), r.autoRenewStatus());
        assertEquals(Arrays.asList("bundleId", "appAppleId"), r.notEnforced());
    }

    @Test
    void receiptFromBase64AndFromDer() throws Exception {
        String base64 = text(APPLE, "real/receipts/tikhop-TPInAppReceipt/receipt-production").trim();
        Receipt fromText = Sigil.verifyReceipt(base64, Options.builder().bundleId("org.getpure.pure-iphone").build());
        assertEquals("receipt", fromText.kind());
        assertEquals("Production", fromText.environment());
        assertEquals("apple", fromText.trust()); // Apple Inc. Root from SIGIL_ROOTS
        assertEquals("org.getpure.pure-iphone", fromText.bundleId());
        assertEquals(4, fromText.inApp().size());
        byte[] der = Base64.getMimeDecoder().decode(base64);
        byte[] incRoot = Files.readAllBytes(TestData.path(APPLE, "real/apple-pki/AppleIncRootCertificate.cer"));
        Receipt fromDer = Sigil.verifyReceipt(der, Options.builder().roots(incRoot).at(Instant.parse("2024-02-24T00:00:00Z")).build());
        assertEquals(fromText.payloadJson(), fromDer.payloadJson());
        assertEquals("pkcs7.invalidEnvironment", assertThrows(SigilVerificationException.class,
                () -> Sigil.verifyReceipt(der, Options.builder().environments("Sandbox").build())).code());
    }

    @Test
    void attestationThenAssertionThenReplay() throws Exception {
        String folder = "real-devices/bas-d-appattest/";
        byte[] attestation = Files.readAllBytes(TestData.path("sigil.test.appattest", folder + "attestation-2021-03-29.cbor"));
        byte[] assertion = Files.readAllBytes(TestData.path("sigil.test.appattest", folder + "assertion-2021-03-29-counter2.cbor"));
        Attestation attested = Sigil.verifyAttestation(attestation, "35MFYY2JY5", "co.chiff.attestation-test", Options.builder()
                .environments("development").clientDataHash(Base64.getDecoder().decode("bG3abZRG07LuZLR4wUxIg7H22oyjis+IcYLJBltJo6I="))
                .atSeconds(1617014196L).build());
        assertEquals("attestation", attested.kind());
        assertEquals("development", attested.environment());
        assertEquals("2nV0DmOmARff/5zVhcZYwn76BtWWXffR+ViClxYJOA4=", attested.keyId());
        assertEquals(Long.valueOf(0L), attested.counter());
        assertEquals("35MFYY2JY5.co.chiff.attestation-test", attested.appId());
        Options clientData = Options.builder().clientData("attestation-test".getBytes(StandardCharsets.UTF_8)).build();
        Assertion asserted = Sigil.verifyAssertion(assertion, "35MFYY2JY5", "co.chiff.attestation-test", attested.publicKey(),
                attested.counter().longValue(), clientData);
        assertEquals("attested-key", asserted.trust());
        assertEquals(Long.valueOf(2L), asserted.counter());
        assertEquals("appattest.counterNotIncreasing", assertThrows(SigilVerificationException.class, () -> Sigil.verifyAssertion(
                assertion, "35MFYY2JY5", "co.chiff.attestation-test", attested.publicKey(), 2L, clientData)).code());
        assertEquals("appattest.rpIDMismatch", assertThrows(SigilVerificationException.class, () -> Sigil.verifyAttestation(
                attestation, "AAAAAAAAAA", "co.chiff.attestation-test", Options.builder().environments("development")
                        .clientDataHash(Base64.getDecoder().decode("bG3abZRG07LuZLR4wUxIg7H22oyjis+IcYLJBltJo6I=")).atSeconds(1617014196L)
                        .build())).code());
        assertEquals("request.missingMember", assertThrows(SigilRequestException.class, () -> Sigil.verifyAttestation(
                attestation, "35MFYY2JY5", "co.chiff.attestation-test", Options.builder().unpinnedTestRoot(true).clientData(new byte[] {1}).build())).code());
    }

    /** A minted token checked by the JDK alone: its ES256 signature (JOSE r||s to DER) and its claims. */
    @Test
    void mintedTokenVerifiesWithTheJdk() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair pair = generator.generateKeyPair();
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(pair.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        String token = Sigil.mintToken(TokenRequest.builder("app-store-server-api", pem, "ABC123").issuerId("issuer")
                .bundleId("com.example.app").issuedAt(Instant.ofEpochSecond(1_700_000_000L)).lifetime(600).build());
        String[] parts = token.split("\\.");
        assertEquals(3, parts.length);
        byte[] raw = Base64.getUrlDecoder().decode(parts[2]);
        assertEquals(64, raw.length);
        Signature verifier = Signature.getInstance("SHA256withECDSA");
        verifier.initVerify(pair.getPublic());
        verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        assertTrue(verifier.verify(der(raw)));
        JsonValue header = JsonValue.parse(new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8));
        JsonValue claims = JsonValue.parse(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
        assertEquals("ABC123", header.string("kid"));
        assertEquals("issuer", claims.string("iss"));
        assertEquals(Long.valueOf(1_700_000_600L), claims.number("exp"));
        SigilException tooLong = assertThrows(SigilException.class, () -> Sigil.mintToken(TokenRequest.builder("app-store-server-api", pem, "K")
                .issuerId("i").bundleId("b").lifetime(7200).build()));
        assertTrue(tooLong.code().startsWith("tokens."), tooLong.code());
        SigilRequestException badKey = assertThrows(SigilRequestException.class, () -> Sigil.mintToken(TokenRequest.builder(
                "app-store-server-api", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "K").issuerId("i").bundleId("b").build()));
        assertEquals("request.invalidMember", badKey.code());
        assertFalse(badKey.getMessage().contains("AAAA"));
    }

    /** A JOSE signature (r || s, 32 bytes each) as the DER SEQUENCE the JDK's Signature reads. */
    static byte[] der(byte[] raw) {
        byte[] r = new BigInteger(1, Arrays.copyOfRange(raw, 0, 32)).toByteArray();
        byte[] s = new BigInteger(1, Arrays.copyOfRange(raw, 32, 64)).toByteArray();
        byte[] out = new byte[6 + r.length + s.length];
        out[0] = 0x30;
        out[1] = (byte) (4 + r.length + s.length);
        out[2] = 0x02;
        out[3] = (byte) r.length;
        System.arraycopy(r, 0, out, 4, r.length);
        out[4 + r.length] = 0x02;
        out[5 + r.length] = (byte) s.length;
        System.arraycopy(s, 0, out, 6 + r.length, s.length);
        return out;
    }

    @Test
    void versionAndLibrary() {
        assertTrue(Sigil.version().contains("."), Sigil.version());
        assertTrue(Sigil.nativeLibrary().endsWith(Native.JNI), Sigil.nativeLibrary());
    }
}

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.Signature;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import sigil.Options;
import sigil.Sigil;
import sigil.Transaction;

/**
 * App Store JWS verifications per second on one JVM: Sigil through its Java binding (JNI over
 * libSigilC) against the pipeline a JVM server writes with the JDK alone, on the same real JWS,
 * bundle id and environment enforced, rounds interleaved after a warm-up of each (BENCH_WARMUP seconds, default 5: the
 * JIT compiles the JDK's Java ECDSA, ASN.1 and PKIX code, and the binding's Java side).
 * Run by Benchmarks/java/run, never by the tests.
 *
 *   java -cp sigil.jar:. Bench JWS ROOT cached|uncached
 *
 * "uncached": every chain validated on both sides (run with SIGIL_CHAIN_CACHE_SECONDS=0, libSigilC's
 * cache off); "cached": each side keeps the chain it validated (libSigilC's cache; the JDK side
 * skips CertificateFactory and CertPathValidator when x5c is the one it last validated) and still
 * checks the signature and the payload every time.
 *
 * The JDK side does each step Sigil does, with the JDK's own classes: split the compact JWS, decode
 * and parse the header (alg ES256, x5c of three), CertificateFactory for each certificate,
 * CertPathValidator (PKIX, revocation off, at the payload's signedDate — Sigil's default time) from
 * the leaf and intermediate to Apple Root CA - G3 as the trust anchor, Apple's marker extensions on
 * the leaf (1.2.840.113635.100.6.11.1) and intermediate (1.2.840.113635.100.6.2.1), Signature
 * SHA256withECDSA by the leaf's key over header.payload (JOSE r||s turned into DER), and the
 * payload parsed (a small JSON reader below: objects, arrays, strings with escapes, numbers)
 * with bundleId and environment compared.
 */
public final class Bench {
    static final String BUNDLE = "com.goodheartapp";
    static final double SECONDS = Double.parseDouble(System.getenv().getOrDefault("BENCH_SECONDS", "3"));
    static final int ROUNDS = Integer.parseInt(System.getenv().getOrDefault("BENCH_ROUNDS", "3"));
    static final double WARMUP = Double.parseDouble(System.getenv().getOrDefault("BENCH_WARMUP", "5"));

    interface Verifier {
        String verify() throws Exception;
    }

    public static void main(String[] arguments) throws Exception {
        String jws = new String(Files.readAllBytes(Paths.get(arguments[0])), StandardCharsets.UTF_8).trim();
        X509Certificate root = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(Paths.get(arguments[1]))));
        boolean cached = arguments[2].equals("cached");
        Options options = Options.builder().bundleId(BUNDLE).environments("Sandbox").build();
        Verifier sigil = () -> {
            Transaction transaction = Sigil.verifyTransaction(jws, options);
            return transaction.transactionId();
        };
        JdkPipeline pipeline = new JdkPipeline(root, cached);
        Verifier jdk = () -> pipeline.verify(jws);
        String expected = "2000000847061981";
        if (!expected.equals(sigil.verify()) || !expected.equals(jdk.verify())) {
            throw new AssertionError("the two sides disagree on the JWS");
        }
        rate(sigil, WARMUP);
        rate(jdk, WARMUP);
        List<Double> sigilRates = new ArrayList<>();
        List<Double> jdkRates = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            sigilRates.add(rate(sigil, SECONDS));
            jdkRates.add(rate(jdk, SECONDS));
        }
        System.out.printf("%s %s %s%n", arguments[2], median(sigilRates), median(jdkRates));
        System.out.printf("# rounds sigil %s jdk %s%n", sigilRates, jdkRates);
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    static long sink;

    static double rate(Verifier verifier, double seconds) throws Exception {
        long start = System.nanoTime();
        long deadline = start + (long) (seconds * 1e9);
        long count = 0;
        long now;
        do {
            sink += verifier.verify().length();
            count++;
            now = System.nanoTime();
        } while (now < deadline);
        return count / ((now - start) / 1e9);
    }

    /** What a JVM server does with the JDK alone. */
    static final class JdkPipeline {
        private final TrustAnchor anchor;
        private final boolean cache;
        private final CertificateFactory factory;
        private final CertPathValidator validator;
        private List<?> validatedX5c;
        private X509Certificate validatedLeaf;

        JdkPipeline(X509Certificate root, boolean cache) throws Exception {
            this.anchor = new TrustAnchor(root, null);
            this.cache = cache;
            this.factory = CertificateFactory.getInstance("X.509");
            this.validator = CertPathValidator.getInstance("PKIX");
        }

        String verify(String jws) throws Exception {
            int first = jws.indexOf('.');
            int second = jws.indexOf('.', first + 1);
            if (first < 0 || second < 0 || jws.indexOf('.', second + 1) >= 0) {
                throw new IllegalArgumentException("not a compact JWS");
            }
            Base64.Decoder url = Base64.getUrlDecoder();
            @SuppressWarnings("unchecked")
            Map<String, Object> header = (Map<String, Object>) new Json(new String(url.decode(jws.substring(0, first)), StandardCharsets.UTF_8)).value();
            if (!"ES256".equals(header.get("alg"))) {
                throw new IllegalArgumentException("alg");
            }
            List<?> x5c = (List<?>) header.get("x5c");
            if (x5c == null || x5c.size() != 3) {
                throw new IllegalArgumentException("x5c");
            }
            byte[] payloadBytes = url.decode(jws.substring(first + 1, second));
            @SuppressWarnings("unchecked")
            Map<String, Object> payload = (Map<String, Object>) new Json(new String(payloadBytes, StandardCharsets.UTF_8)).value();
            X509Certificate leaf;
            if (cache && x5c.equals(validatedX5c)) {
                leaf = validatedLeaf;
            } else {
                List<X509Certificate> chain = new ArrayList<>();
                for (int index = 0; index < 2; index++) {
                    chain.add((X509Certificate) factory.generateCertificate(
                            new ByteArrayInputStream(Base64.getDecoder().decode((String) x5c.get(index)))));
                }
                factory.generateCertificate(new ByteArrayInputStream(Base64.getDecoder().decode((String) x5c.get(2))));
                if (chain.get(0).getExtensionValue("1.2.840.113635.100.6.11.1") == null
                        || chain.get(1).getExtensionValue("1.2.840.113635.100.6.2.1") == null) {
                    throw new IllegalArgumentException("Apple's marker extensions");
                }
                CertPath path = factory.generateCertPath(chain);
                PKIXParameters parameters = new PKIXParameters(Collections.singleton(anchor));
                parameters.setRevocationEnabled(false);
                parameters.setDate(new Date(((Number) payload.get("signedDate")).longValue()));
                validator.validate(path, parameters);
                leaf = chain.get(0);
                if (cache) {
                    validatedX5c = x5c;
                    validatedLeaf = leaf;
                }
            }
            byte[] raw = url.decode(jws.substring(second + 1));
            if (raw.length != 64) {
                throw new IllegalArgumentException("signature length");
            }
            Signature signature = Signature.getInstance("SHA256withECDSA");
            signature.initVerify(leaf.getPublicKey());
            signature.update(jws.substring(0, second).getBytes(StandardCharsets.US_ASCII));
            if (!signature.verify(der(raw))) {
                throw new SecurityException("bad signature");
            }
            if (!BUNDLE.equals(payload.get("bundleId")) || !"Sandbox".equals(payload.get("environment"))) {
                throw new SecurityException("bundle id or environment");
            }
            return (String) payload.get("transactionId");
        }

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
    }

    /** A small JSON reader (objects as maps, arrays as lists, numbers as Long or Double). */
    static final class Json {
        private final String text;
        private int at;

        Json(String text) {
            this.text = text;
        }

        Object value() {
            space();
            char c = text.charAt(at);
            if (c == '{') {
                Map<String, Object> map = new LinkedHashMap<>();
                at++;
                space();
                if (text.charAt(at) == '}') {
                    at++;
                    return map;
                }
                while (true) {
                    space();
                    String name = string();
                    space();
                    expect(':');
                    map.put(name, value());
                    space();
                    if (text.charAt(at) == ',') {
                        at++;
                        continue;
                    }
                    expect('}');
                    return map;
                }
            }
            if (c == '[') {
                List<Object> list = new ArrayList<>();
                at++;
                space();
                if (text.charAt(at) == ']') {
                    at++;
                    return list;
                }
                while (true) {
                    list.add(value());
                    space();
                    if (text.charAt(at) == ',') {
                        at++;
                        continue;
                    }
                    expect(']');
                    return list;
                }
            }
            if (c == '"') {
                return string();
            }
            if (text.startsWith("true", at)) {
                at += 4;
                return Boolean.TRUE;
            }
            if (text.startsWith("false", at)) {
                at += 5;
                return Boolean.FALSE;
            }
            if (text.startsWith("null", at)) {
                at += 4;
                return null;
            }
            int start = at;
            while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
                at++;
            }
            String number = text.substring(start, at);
            return number.matches("-?\\d+") ? (Object) Long.valueOf(number) : (Object) Double.valueOf(number);
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = text.charAt(at++);
                if (c == '"') {
                    return out.toString();
                }
                if (c == '\\') {
                    char e = text.charAt(at++);
                    switch (e) {
                        case 'n': out.append('\n'); break;
                        case 't': out.append('\t'); break;
                        case 'r': out.append('\r'); break;
                        case 'b': out.append('\b'); break;
                        case 'f': out.append('\f'); break;
                        case 'u': out.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; break;
                        default: out.append(e);
                    }
                } else {
                    out.append(c);
                }
            }
        }

        private void space() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private void expect(char c) {
            if (text.charAt(at) != c) {
                throw new IllegalArgumentException("JSON at " + at + ": expected " + c);
            }
            at++;
        }
    }
}

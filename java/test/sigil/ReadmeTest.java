package sigil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The README's Java and Kotlin lines exactly as written: the class after
 * {@code <!-- java-example -->} (the file after {@code <!-- kotlin-example -->}) saved under its
 * name, and each line of the ```sh block after {@code <!-- java-commands -->}
 * ({@code <!-- kotlin-commands -->}) run with bash in an empty folder holding only that file,
 * sigil.jar (alone: its native libraries are extracted from it) and transaction.jws (a real App
 * Store JWS, as a file holds it). Standard output of the last line is the answer; standard error
 * (kotlinc's JVM warns about a deprecated flag on JDK 13 and later) is shown only on failure.
 */
class ReadmeTest {
    private static String block(String readme, String marker, String language) {
        Matcher match = Pattern.compile(Pattern.quote(marker) + "\n```" + language + "\n(.*?)\n```", Pattern.DOTALL).matcher(readme);
        assertTrue(match.find(), "README.md has no ```" + language + " block after " + marker);
        return match.group(1);
    }

    @Test
    void theReadmesJavaLinesCompileAndRunAsWritten() throws Exception {
        String readme = TestData.text(TestData.path("sigil.test.repository", "README.md"));
        String example = block(readme, "<!-- java-example -->", "java");
        Matcher name = Pattern.compile("public class (\\w+)").matcher(example);
        assertTrue(name.find(), "the README's Java example declares no public class");
        runAsWritten(name.group(1) + ".java", example, block(readme, "<!-- java-commands -->", "sh"), "javac --release 8");
    }

    /** The Kotlin example the same way: Debian's kotlinc compiles it against sigil.jar, java runs it. */
    @Test
    void theReadmesKotlinLinesCompileAndRunAsWritten() throws Exception {
        String readme = TestData.text(TestData.path("sigil.test.repository", "README.md"));
        runAsWritten("Verify.kt", block(readme, "<!-- kotlin-example -->", "kotlin"), block(readme, "<!-- kotlin-commands -->", "sh"), "kotlinc ");
    }

    private static void runAsWritten(String fileName, String source, String commands, String compiler) throws Exception {
        List<String> lines = Arrays.asList(commands.split("\n"));
        assertTrue(lines.stream().anyMatch(line -> line.startsWith(compiler)), lines.toString());
        Path folder = Files.createTempDirectory("sigil-readme-");
        try {
            Files.write(folder.resolve(fileName), source.getBytes(StandardCharsets.UTF_8));
            Files.copy(TestData.path("sigil.test.jar"), folder.resolve("sigil.jar"));
            Files.copy(TestData.path("sigil.test.apple", "real/jws/mingos-app_store_server_api/sandbox-transaction-consumable-2025-02-10.jws"),
                    folder.resolve("transaction.jws"));
            String output = "";
            for (String line : lines) {
                Process process = new ProcessBuilder("bash", "-c", line).directory(folder.toFile()).start();
                ByteArrayOutputStream errors = new ByteArrayOutputStream();
                Thread drain = new Thread(() -> copy(process.getErrorStream(), errors));
                drain.start();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                copy(process.getInputStream(), out);
                drain.join();
                output = new String(out.toByteArray(), StandardCharsets.UTF_8);
                assertEquals(0, process.waitFor(), line + "\n" + output + new String(errors.toByteArray(), StandardCharsets.UTF_8));
            }
            assertEquals("2000000847061981 gh_super_good_ticket_1 Sandbox apple\n", output);
        } finally {
            try (java.util.stream.Stream<Path> files = Files.walk(folder)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        byte[] buffer = new byte[8192];
        try {
            for (int read; (read = in.read(buffer)) > 0;) {
                out.write(buffer, 0, read);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

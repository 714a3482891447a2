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
 * The README's Java lines exactly as written: the class after {@code <!-- java-example -->} saved
 * under its name, and each line of the ```sh block after {@code <!-- java-commands -->} run with
 * bash in an empty folder holding only that file, sigil.jar (alone: its native libraries are
 * extracted from it) and transaction.jws (a real App Store JWS, as a file holds it).
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
        List<String> lines = Arrays.asList(block(readme, "<!-- java-commands -->", "sh").split("\n"));
        Matcher name = Pattern.compile("public class (\\w+)").matcher(example);
        assertTrue(name.find(), "the README's Java example declares no public class");
        assertTrue(lines.stream().anyMatch(line -> line.startsWith("javac --release 8")), lines.toString());
        Path folder = Files.createTempDirectory("sigil-readme-");
        try {
            Files.write(folder.resolve(name.group(1) + ".java"), example.getBytes(StandardCharsets.UTF_8));
            Files.copy(TestData.path("sigil.test.jar"), folder.resolve("sigil.jar"));
            Files.copy(TestData.path("sigil.test.apple", "real/jws/mingos-app_store_server_api/sandbox-transaction-consumable-2025-02-10.jws"),
                    folder.resolve("transaction.jws"));
            String output = "";
            for (String line : lines) {
                Process process = new ProcessBuilder("bash", "-c", line).directory(folder.toFile()).redirectErrorStream(true).start();
                InputStream in = process.getInputStream();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                byte[] buffer = new byte[8192];
                for (int read; (read = in.read(buffer)) > 0;) {
                    out.write(buffer, 0, read);
                }
                output = new String(out.toByteArray(), StandardCharsets.UTF_8);
                assertEquals(0, process.waitFor(), line + "\n" + output);
            }
            assertEquals("2000000847061981 gh_super_good_ticket_1 Sandbox apple\n", output);
        } finally {
            try (java.util.stream.Stream<Path> files = Files.walk(folder)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}

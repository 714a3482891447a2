package sigil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Where the native library comes from, each in a JVM of its own: a jar of classes alone finds it
 * through java.library.path; with it nowhere the error names every place looked in; the full jar
 * alone extracts it (the README test runs that too).
 */
class LoaderTest {
    /** Runs LoaderProbe with the jar at {@code jar}; returns exit status and output. */
    private static Object[] probe(Path jar, String... properties) throws Exception {
        List<String> command = new ArrayList<String>();
        command.add(new File(System.getProperty("java.home"), "bin/java").getPath());
        command.addAll(Arrays.asList(properties));
        command.add("-cp");
        command.add(jar + File.pathSeparator + System.getProperty("sigil.test.probe"));
        command.add("sigil.LoaderProbe");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        InputStream in = process.getInputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int read; (read = in.read(buffer)) > 0;) {
            out.write(buffer, 0, read);
        }
        return new Object[] {process.waitFor(), new String(out.toByteArray(), StandardCharsets.UTF_8)};
    }

    private static Path alone(String property) throws Exception {
        Path folder = Files.createTempDirectory("sigil-loader-");
        Path jar = folder.resolve("sigil.jar");
        Files.copy(TestData.path(property), jar);
        folder.toFile().deleteOnExit();
        jar.toFile().deleteOnExit();
        return jar;
    }

    @Test
    void throughJavaLibraryPath() throws Exception {
        Path directory = TestData.path("sigil.test.jar").getParent();
        Object[] result = probe(alone("sigil.test.plainjar"), "-Djava.library.path=/nonexistent" + File.pathSeparator + directory);
        assertEquals(0, result[0], (String) result[1]);
        assertTrue(((String) result[1]).startsWith("loaded " + directory.resolve(Native.JNI)), (String) result[1]);
    }

    @Test
    void missingEverywhereNamesEveryPlace() throws Exception {
        Path jar = alone("sigil.test.plainjar");
        Object[] result = probe(jar, "-Djava.library.path=/nonexistent");
        String output = (String) result[1];
        assertEquals(3, result[0], output);
        assertTrue(output.contains("UnsatisfiedLinkError"), output);
        assertTrue(output.contains("next to the jar " + jar.getParent() + " (" + Native.JNI + " absent)"), output);
        assertTrue(output.contains("java.library.path /nonexistent (" + Native.JNI + " absent)"), output);
        assertTrue(output.contains("in the jar sigil/native/" + Native.platform() + "/ (absent)"), output);
        // ... and again on the next call, not a NoClassDefFoundError
        assertTrue(output.contains("second call: java.lang.UnsatisfiedLinkError"), output);
    }

    @Test
    void extractedFromTheJarAlone() throws Exception {
        Object[] result = probe(alone("sigil.test.jar"), "-Djava.library.path=/nonexistent");
        assertEquals(0, result[0], (String) result[1]);
        assertTrue(((String) result[1]).startsWith("loaded jar:sigil/native/" + Native.platform() + "/" + Native.JNI), (String) result[1]);
    }

    @Test
    void anExplicitDirectoryIsTheOnlyPlaceLookedIn() throws Exception {
        Object[] result = probe(TestData.path("sigil.test.jar"), "-Dsigil.library.dir=/nonexistent");
        assertEquals(3, result[0], (String) result[1]);
        assertTrue(((String) result[1]).contains("looked in: sigil.library.dir /nonexistent (" + Native.JNI + " absent). "), (String) result[1]);
    }
}

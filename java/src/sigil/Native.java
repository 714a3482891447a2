package sigil;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The native side: libsigil_jni (java/native/sigil_jni.c) and the libSigilC it links, loaded once,
 * on first use, from the first place that has both:
 * <ol>
 * <li>the directory the system property {@code sigil.library.dir} names, when set (then only there);
 * <li>the directory of the jar (or class folder) this class came from;
 * <li>each directory of {@code java.library.path};
 * <li>the jar itself ({@code sigil/native/<os>-<arch>/}), copied to a new directory only the
 * user can read (0700), loaded from there and deleted at once (the mapping stays).
 * </ol>
 * libsigil_jni finds libSigilC beside it ($ORIGIN); libSigilC finds the Swift runtime where its
 * build put it. When none has them, every call throws an {@link UnsatisfiedLinkError} naming each
 * place looked in and why it did not serve.
 */
final class Native {
    static final String JNI = System.mapLibraryName("sigil_jni");
    static final String CORE = System.mapLibraryName("SigilC");

    private static final String LOCATION;
    private static final String FAILURE;

    static {
        List<String> tried = new ArrayList<String>();
        String location = null;
        try {
            location = load(tried);
        } catch (RuntimeException | LinkageError unexpected) {
            tried.add("(" + unexpected + ")");
        }
        LOCATION = location;
        FAILURE = location != null ? null
                : "sigil: " + JNI + " and " + CORE + " were not found or did not load; looked in: " + String.join("; ", tried)
                        + ". Build them with java/build (the jar carries them), put them next to the jar, or name their"
                        + " directory with -Dsigil.library.dir=DIR";
    }

    private Native() {}

    /** The first place that loads; null when none does ({@code tried} then says why). */
    private static String load(List<String> tried) {
        String explicit = System.getProperty("sigil.library.dir");
        if (explicit != null) {
            return fromDirectory("sigil.library.dir " + explicit, new File(explicit), tried);
        }
        File jar = codeLocation(tried);
        if (jar != null) {
            File beside = jar.isDirectory() ? jar : jar.getParentFile();
            String found = fromDirectory("next to the jar " + beside, beside, tried);
            if (found != null) {
                return found;
            }
        }
        String path = System.getProperty("java.library.path", "");
        for (String entry : path.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                String found = fromDirectory("java.library.path " + entry, new File(entry), tried);
                if (found != null) {
                    return found;
                }
            }
        }
        if (path.isEmpty()) {
            tried.add("java.library.path (empty)");
        }
        return fromJar(tried);
    }

    private static File codeLocation(List<String> tried) {
        try {
            CodeSource source = Native.class.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null && "file".equals(source.getLocation().getProtocol())) {
                return new File(source.getLocation().toURI());
            }
            tried.add("next to the jar (its location is not a file)");
        } catch (Exception unknown) {
            tried.add("next to the jar (" + unknown + ")");
        }
        return null;
    }

    private static String fromDirectory(String place, File directory, List<String> tried) {
        File jni = new File(directory, JNI);
        File core = new File(directory, CORE);
        if (!jni.isFile() || !core.isFile()) {
            tried.add(place + " (" + (jni.isFile() ? CORE : JNI) + " absent)");
            return null;
        }
        try {
            System.load(jni.getAbsolutePath());
            return jni.getAbsolutePath();
        } catch (UnsatisfiedLinkError failed) {
            tried.add(place + " (" + failed.getMessage() + ")");
            return null;
        }
    }

    private static String fromJar(List<String> tried) {
        String folder = "sigil/native/" + platform() + "/";
        URL jni = Native.class.getClassLoader() == null ? null : Native.class.getClassLoader().getResource(folder + JNI);
        URL core = Native.class.getClassLoader() == null ? null : Native.class.getClassLoader().getResource(folder + CORE);
        if (jni == null || core == null) {
            tried.add("in the jar " + folder + " (absent)");
            return null;
        }
        Path directory = null;
        try {
            directory = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                    ? Files.createTempDirectory("sigil-native-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
                    : Files.createTempDirectory("sigil-native-");
            copy(jni, directory.resolve(JNI));
            copy(core, directory.resolve(CORE));
            String loaded = fromDirectory("extracted from the jar to " + directory, directory.toFile(), tried);
            return loaded == null ? null : "jar:" + folder + JNI;
        } catch (IOException failed) {
            tried.add("extracted from the jar (" + failed + ")");
            return null;
        } finally {
            if (directory != null) {
                delete(directory.resolve(JNI));
                delete(directory.resolve(CORE));
                delete(directory);
            }
        }
    }

    private static void copy(URL resource, Path target) throws IOException {
        InputStream in = resource.openStream();
        try {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            in.close();
        }
    }

    private static void delete(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            path.toFile().deleteOnExit();
        }
    }

    /** "linux-x86_64", "linux-aarch64", "mac-aarch64", … */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String osName = os.startsWith("linux") ? "linux" : os.startsWith("mac") ? "mac" : os.replace(' ', '_');
        String archName = arch.equals("amd64") || arch.equals("x86_64") ? "x86_64" : arch.equals("arm64") || arch.equals("aarch64") ? "aarch64" : arch;
        return osName + "-" + archName;
    }

    /** Where the native library was loaded from; the {@link UnsatisfiedLinkError} when it was not. */
    static String location() {
        check();
        return LOCATION;
    }

    static void check() {
        if (FAILURE != null) {
            throw new UnsatisfiedLinkError(FAILURE);
        }
    }

    /** sigil_verify: the answer's UTF-8 bytes for a request's (null: libSigilC gets NULL). */
    static native byte[] verify(byte[] request);

    /** sigil_mint_token. */
    static native byte[] mintToken(byte[] request);

    /** sigil_version. */
    static native byte[] version();
}

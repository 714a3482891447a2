package sigil;

/** LoaderTest's child JVM: prints where the native library came from and one answer, or the error (exit 3). */
public final class LoaderProbe {
    private LoaderProbe() {}

    public static void main(String[] arguments) {
        try {
            String location = Sigil.nativeLibrary();
            System.out.println("loaded " + location + " " + Sigil.verify("{\"data\":\"x\"}"));
        } catch (UnsatisfiedLinkError missing) {
            System.out.println(missing);
            try {
                Sigil.verify("{}");
            } catch (UnsatisfiedLinkError again) {
                System.out.println("second call: " + again);
            }
            System.exit(3);
        }
    }
}

"""The package under test is the one installed (pip install ./python) when SIGIL_TEST_INSTALLED=1,
else this checkout's python/ over the repository's release build of libSigilC."""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPOSITORY, "Conformance"))
if os.environ.get("SIGIL_TEST_INSTALLED") != "1":
    sys.path.insert(0, os.path.dirname(HERE))

# Apple's roots that are not built in, where the library reads them at its first call (receipts and
# attestations without request roots): set before the package loads libSigilC.
import conformance  # noqa: E402

os.environ["SIGIL_ROOTS"] = conformance.install_roots(os.path.join(tempfile.mkdtemp(prefix="sigil-roots-"), "roots"))

"""The package under test is the one installed (pip install ./python) when SIGIL_TEST_INSTALLED=1,
else this checkout's python/ over the repository's release build of libSigilC."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPOSITORY, "Conformance"))
if os.environ.get("SIGIL_TEST_INSTALLED") != "1":
    sys.path.insert(0, os.path.dirname(HERE))

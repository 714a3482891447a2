"""The build backend of the `sigil` package (PEP 517), in the standard library alone: a wheel of
sigil/*.py and libSigilC.so, so that `pip install ./python` needs nothing downloaded.

libSigilC.so is $SIGIL_LIBRARY when set, else the repository's release build (.build/release beside
this folder), built with `swift build -c release --product SigilC` only when it is not there yet.
The wheel is tagged for this platform: it carries a native library."""
import base64
import hashlib
import os
import subprocess
import sysconfig
import zipfile

HERE = os.path.dirname(os.path.realpath(__file__))
REPOSITORY = os.path.dirname(HERE)
NAME = "sigil_verify"
VERSION = "0.1.0.dev0"
TAG = "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_")
METADATA = """Metadata-Version: 2.1
Name: sigil-verify
Version: {version}
Summary: Sigil's verifiers of App Store signed data, app receipts and App Attest objects, over its C ABI (libSigilC)
Requires-Python: >=3.9
""".format(version=VERSION)
WHEEL = "Wheel-Version: 1.0\nGenerator: sigil_build\nRoot-Is-Purelib: false\nTag: {tag}\n".format(tag=TAG)


def _library():
    explicit = os.environ.get("SIGIL_LIBRARY")
    if explicit:
        if not os.path.isfile(explicit):
            raise RuntimeError("SIGIL_LIBRARY=%s is not a file" % explicit)
        return explicit
    built = os.path.join(REPOSITORY, ".build", "release", "libSigilC.so")
    if not os.path.isfile(built):
        subprocess.run(["swift", "build", "-c", "release", "--product", "SigilC"], cwd=REPOSITORY, check=True)
    return built


def _files():
    """(path in the wheel, bytes) of the package."""
    package = os.path.join(HERE, "sigil")
    for name in sorted(os.listdir(package)):
        if name.endswith(".py") or name == "py.typed":
            with open(os.path.join(package, name), "rb") as f:
                yield "sigil/" + name, f.read()
    with open(_library(), "rb") as f:
        yield "sigil/libSigilC.so", f.read()


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return "%s,sha256=%s,%d" % (path, digest, len(data))


def _dist_info(directory):
    path = os.path.join(directory, "%s-%s.dist-info" % (NAME, VERSION))
    os.makedirs(path, exist_ok=True)
    for name, text in (("METADATA", METADATA), ("WHEEL", WHEEL)):
        with open(os.path.join(path, name), "w", encoding="utf-8") as f:
            f.write(text)
    return os.path.basename(path)


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _dist_info(metadata_directory)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = "%s-%s-%s.whl" % (NAME, VERSION, TAG)
    info = "%s-%s.dist-info" % (NAME, VERSION)
    entries = list(_files()) + [(info + "/METADATA", METADATA.encode()), (info + "/WHEEL", WHEEL.encode())]
    record = "".join(_record_line(path, data) + "\n" for path, data in entries) + info + "/RECORD,,\n"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in entries:
            wheel.writestr(path, data)
        wheel.writestr(info + "/RECORD", record)
    return name

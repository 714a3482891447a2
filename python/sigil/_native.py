"""The one place that talks to libSigilC: loading it and moving strings across sigil.h."""
import ctypes
import os
from typing import Optional

_HERE = os.path.dirname(os.path.abspath(__file__))


def _candidates() -> list:
    explicit = os.environ.get("SIGIL_LIBRARY")
    if explicit:
        return [explicit]
    return [
        os.path.join(_HERE, "libSigilC.so"),  # installed by pip install ./python
        os.path.join(os.path.dirname(os.path.dirname(_HERE)), ".build", "release", "libSigilC.so"),  # a checkout
    ]


def _load() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        if os.path.isfile(path):
            library = ctypes.CDLL(path)
            break
        tried.append(path)
    else:
        raise OSError(
            "libSigilC.so not found (tried %s): build it with `swift build -c release --product SigilC` "
            "or set SIGIL_LIBRARY" % ", ".join(tried)
        )
    for name in ("sigil_verify", "sigil_mint_token"):
        function = getattr(library, name)
        function.argtypes = [ctypes.c_char_p]
        function.restype = ctypes.c_void_p  # kept as a pointer: it must go back to sigil_free
    library.sigil_free.argtypes = [ctypes.c_void_p]
    library.sigil_free.restype = None
    library.sigil_version.argtypes = []
    library.sigil_version.restype = ctypes.c_char_p
    return library


_library: Optional[ctypes.CDLL] = None


def library() -> ctypes.CDLL:
    """libSigilC, loaded on first use (any thread may call it: sigil.h says so)."""
    global _library
    if _library is None:
        _library = _load()
    return _library


def call(function_name: str, request: bytes) -> str:
    """The answer document of sigil_verify or sigil_mint_token for `request` (no NUL byte in it:
    the caller checked), the C string released with sigil_free whatever happens."""
    lib = library()
    pointer = getattr(lib, function_name)(request)
    if not pointer:
        raise MemoryError("libSigilC could not allocate the answer")
    try:
        return ctypes.string_at(pointer).decode("utf-8")
    finally:
        lib.sigil_free(pointer)


def version() -> str:
    """sigil_version()."""
    return library().sigil_version().decode("utf-8")

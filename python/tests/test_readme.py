"""The README's Python lines, exactly as written, in a fresh virtualenv in an empty folder holding
only `python` (this package) and `transaction.jws` (a real App Store JWS, as a file holds it).
pip runs with PIP_NO_INDEX=1: nothing may be downloaded."""
import os
import re
import shutil
import subprocess
import tempfile

import conformance

REPOSITORY = conformance.ROOT


def readme_lines(marker):
    with open(os.path.join(REPOSITORY, "README.md"), encoding="utf-8") as f:
        text = f.read()
    match = re.search(re.escape(marker) + r"\n```sh\n(.*?)\n```", text, re.S)
    assert match, "README.md has no ```sh block after " + marker
    return match.group(1).split("\n")


def test_readme_python_lines_in_a_fresh_virtualenv():
    lines = readme_lines("<!-- python-commands -->")
    assert any("pip install ./python" in line for line in lines)
    assert any("sigil.verify(open(" in line for line in lines)
    folder = tempfile.mkdtemp(prefix="sigil-readme-")
    try:
        os.symlink(os.path.join(REPOSITORY, "python"), os.path.join(folder, "python"))
        shutil.copyfile(
            os.path.join(
                conformance.vectors_dir("apple"),
                "real/jws/mingos-app_store_server_api/sandbox-transaction-consumable-2025-02-10.jws",
            ),
            os.path.join(folder, "transaction.jws"),
        )
        environment = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
        environment.pop("SIGIL_LIBRARY", None)
        environment.pop("PYTHONPATH", None)
        output = ""
        for line in lines:
            result = subprocess.run(
                ["bash", "-c", line], cwd=folder, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300
            )
            output = result.stdout.decode("utf-8", "replace")
            assert result.returncode == 0, "%s\n%s" % (line, output)
        # The last line printed the answer of the installed package (not this checkout's).
        assert output.startswith("{'valid': True, 'kind': 'transaction', 'environment': 'Sandbox'"), output
        assert "'transactionId': '2000000847061981'" in output
        installed = subprocess.run(
            [os.path.join(folder, "venv", "bin", "python"), "-c", "import sigil; print(sigil.__file__)"],
            cwd=folder, env=environment, stdout=subprocess.PIPE, check=True,
        ).stdout.decode()
        assert installed.startswith(os.path.join(folder, "venv")), installed
    finally:
        shutil.rmtree(folder)

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The Flatpak manifest parses, names the app, and keeps its sandbox holes small.
set -eu
manifest=$1
if command -v flatpak-builder >/dev/null 2>&1; then
  flatpak-builder --show-manifest "$manifest" >/dev/null
fi
python3 - "$manifest" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["id"] == "io.github.procura.Procura", m["id"]
assert m["command"] == "procura"
args = m["finish-args"]
for forbidden in ("--filesystem=home", "--filesystem=host", "--device=all", "--share=network"):
    assert forbidden not in args, "finish-args must not hold " + forbidden
# the probe reaches clusters through the host's ssh, kubectl and sbatch (flatpak-spawn --host)
for needed in ("--socket=wayland", "--socket=fallback-x11", "--share=ipc", "--talk-name=org.freedesktop.Flatpak"):
    assert needed in args, "finish-args lacks " + needed
names = [mod["name"] if isinstance(mod, dict) else mod for mod in m["modules"]]
assert names[-1] == "procura", names
assert "simdjson" in names, "simdjson must be built in the manifest"
print("manifest ok:", ", ".join(names))
PY

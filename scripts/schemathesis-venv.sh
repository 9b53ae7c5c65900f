#!/usr/bin/env bash
# Installs the pinned schemathesis (PyPI) into a virtualenv kept OUTSIDE the checkout, once, and
# prints the path of its `st` executable. The fuzzing run (test/hostile/schemathesis.ts) calls it.
# Debian's python3 has no `venv` module until python3-venv is installed, so that is added when missing.
set -euo pipefail

SCHEMATHESIS_VERSION=4.32.5
VENV="${SCHEMATHESIS_VENV:-${HOME}/.cache/schemathesis-venv/${SCHEMATHESIS_VERSION}}"
ST="${VENV}/bin/st"

if [ -x "${ST}" ] && "${ST}" --version 2>/dev/null | grep -q "${SCHEMATHESIS_VERSION}"; then
  echo "${ST}"
  exit 0
fi

if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
  echo "installing python3-venv (Debian) for the schemathesis virtualenv" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  ${SUDO} apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive ${SUDO} apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
fi

echo "installing schemathesis ${SCHEMATHESIS_VERSION} into ${VENV}" >&2
rm -rf "${VENV}"
python3 -m venv "${VENV}" >&2
"${VENV}/bin/pip" install --quiet --disable-pip-version-check "schemathesis==${SCHEMATHESIS_VERSION}" >&2
"${ST}" --version >&2
echo "${ST}"

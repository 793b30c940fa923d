#!/usr/bin/env bash
# npm run record:demo encodes the browser's screencast frames with Debian's ffmpeg (Playwright's
# own ffmpeg build comes from its CDN, which this project does not use): install it when missing.
set -euo pipefail
if command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null; then exit 0; fi
echo "installing ffmpeg (apt-get), it is missing"
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ffmpeg

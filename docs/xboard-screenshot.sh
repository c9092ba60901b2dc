#!/usr/bin/env bash
# Makes docs/xboard-dai.png: XBoard (Debian xboard 4.9) under Xvfb, koma against koma in Dai
# Shogi, a variant XBoard does not know and koma defines for it (setup + piece commands);
# the screen is taken 20 seconds in. Needs xboard, xvfb, x11-apps (xwd) and imagemagick.
# Usage: docs/xboard-screenshot.sh  (from the repository, after cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/.."
koma="$PWD/target/release/koma"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/shot.sh" <<INNER
#!/usr/bin/env bash
/usr/games/xboard -fcp "$koma xboard" -scp "$koma xboard" -variant dai -matchGames 1 \
  -searchTime 0:01 -adjudicateDrawMoves 0 -saveSettingsOnExit false -size medium \
  -popupExitMessage false -popupMoveErrors false -highlightLastMove true -showCoords true \
  >/dev/null 2>&1 &
sleep 20
xwd -root -silent >"$work/shot.xwd"
kill \$!
INNER
chmod +x "$work/shot.sh"
xvfb-run -a -s "-screen 0 1600x1400x24" "$work/shot.sh"
convert "$work/shot.xwd" -trim docs/xboard-dai.png

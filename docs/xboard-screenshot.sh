#!/usr/bin/env bash
# Makes the XBoard screenshots in README, koma against koma under Xvfb in variants XBoard does
# not know and koma defines for it (setup + piece commands). Needs xvfb, x11-apps (xwd) and
# imagemagick.
#   docs/xboard-screenshot.sh dai
#     docs/xboard-dai.png: Debian's xboard 4.9 (/usr/games/xboard), Dai Shogi, 20 seconds in.
#   docs/xboard-screenshot.sh tori
#     docs/xboard-tori.png: Tori Shogi in Debian's xboard with koma's own pieces
#     (koma xboard-pieces tori DIR, then -pieceImageDirectory DIR -trueColors true), 20 seconds in.
#   docs/xboard-screenshot.sh maka-dai-dai XBOARD
#     docs/xboard-maka-dai-dai.png: Maka-Dai-Dai in XBOARD, an XBoard built by
#     scripts/xboard-big.sh (Debian's stops at 15 ranks and 16 files), a few moves in
#     (-adjudicateDrawMoves 4 ends the game there, and XBoard keeps the board on screen). The
#     game must end before a capture: in Maka-Dai-Dai a capture promotes, most promoted kinds
#     are past the 65 kinds XBoard holds, and XBoard refuses such a move and ends the game;
#     the script fails then (run it again).
# Run from the repository, after cargo build --release (or with KOMA=path/to/koma).
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:?usage: docs/xboard-screenshot.sh dai | tori | maka-dai-dai XBOARD}
koma="${KOMA:-$PWD/target/release/koma}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case $variant in
  dai)
    xboard=/usr/games/xboard
    args="-matchGames 1 -searchTime 0:01 -adjudicateDrawMoves 0 -size medium"
    wait="sleep 20"
    ;;
  tori)
    xboard=/usr/games/xboard
    "$koma" xboard-pieces tori "$work/pieces" >/dev/null
    args="-matchGames 1 -searchTime 0:01 -adjudicateDrawMoves 0 -size medium -pieceImageDirectory $work/pieces -trueColors true"
    wait="sleep 20"
    ;;
  maka-dai-dai)
    xboard=${2:?usage: docs/xboard-screenshot.sh maka-dai-dai XBOARD (from scripts/xboard-big.sh)}
    args="-initialMode TwoMachines -searchTime 0:01 -adjudicateDrawMoves 4 -size titanic"
    wait="for _ in \$(seq 120); do grep -qE \"GameEnds\\([1-9]\" $work/debug 2>/dev/null && break; sleep 1; done; sleep 2"
    ;;
  *)
    echo "no screenshot of $variant" >&2
    exit 2
    ;;
esac
cat >"$work/shot.sh" <<INNER
#!/usr/bin/env bash
$xboard -fcp "$koma xboard" -scp "$koma xboard" -variant $variant $args \
  -saveSettingsOnExit false -popupExitMessage false \
  -popupMoveErrors false -highlightLastMove true -showCoords true \
  -debugMode true -nameOfDebugFile $work/debug >/dev/null 2>&1 &
$wait
xwd -root -silent >"$work/shot.xwd"
kill \$!
INNER
chmod +x "$work/shot.sh"
xvfb-run -a -s "-screen 0 1600x1400x24" "$work/shot.sh"
if grep -E "Forfeit|Illegal move" "$work/debug"; then
  echo "XBoard ended the game on a move it refused; run again" >&2
  exit 1
fi
convert "$work/shot.xwd" -trim "docs/xboard-$variant.png"
echo "docs/xboard-$variant.png: $(grep -c '<.*: move ' "$work/debug") moves"

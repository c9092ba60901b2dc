#!/usr/bin/env bash
# Builds XBoard 4.9.1 (the version Debian ships) with its board limits raised, so that it shows
# Maka-Dai-Dai's 19×19 board. For koma's documentation (docs/xboard-screenshot.sh takes
# docs/xboard-maka-dai-dai.png with it), not for play: the build is not tested beyond that, and
# players use their own XBoard.
#
# XBoard's board limits are compile-time constants in common.h: BOARD_RANKS 17 and BOARD_FILES
# 16, of which two ranks are hidden (castling and virgin-piece flags), so boards stop at 15
# ranks and at 16 files holdings included ("Recompile to support this BOARD_RANKS or
# BOARD_FILES!"). This build sets 21 and 23: 19×19 with room to spare. The number of piece
# kinds (66 a side, the King included: the ChessSquare enum in common.h) is not raised: every
# kind has its own images and code, and koma's `setup` keeps to it for every XBoard.
#
# Usage: scripts/xboard-big.sh PREFIX [SOURCE]
#   PREFIX  where to install (PREFIX/bin/xboard); the build is made in PREFIX/build.
#   SOURCE  XBoard 4.9.1's source: a directory, a .tar.gz, or a git repository (a URL or a
#           path; tag v4.9.1 is checked out). Default: GNU's repository,
#           https://git.savannah.gnu.org/git/xboard.git.
# Needs a C compiler, make, git, autoconf, automake, autopoint, texinfo, pkg-config and the
# headers of Debian's build dependencies: apt-get install build-essential git autoconf
# automake autopoint texinfo pkg-config libgtk2.0-dev libcairo2-dev librsvg2-dev libxaw7-dev
set -euo pipefail
prefix=${1:?usage: scripts/xboard-big.sh PREFIX [SOURCE]}
source=${2:-https://git.savannah.gnu.org/git/xboard.git}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
build="$prefix/build"
rm -rf "$build"
if [ -d "$source" ] && [ ! -e "$source/.git" ] && [ ! -d "$source/objects" ]; then
  cp -r "$source" "$build"
elif [ -f "$source" ]; then
  mkdir -p "$build"
  tar -xzf "$source" -C "$build" --strip-components=1
else
  git clone --quiet --branch v4.9.1 "$source" "$build"
fi
cd "$build"
sed -i -e 's/^#define BOARD_RANKS .*/#define BOARD_RANKS             21/' \
  -e 's/^#define BOARD_FILES .*/#define BOARD_FILES             23/' common.h
grep -q '^#define BOARD_RANKS *21' common.h && grep -q '^#define BOARD_FILES *23' common.h || {
  echo "common.h: BOARD_RANKS or BOARD_FILES not found; is this XBoard 4.9's source?" >&2
  exit 1
}
[ -x configure ] || ./autogen.sh >autogen.log 2>&1
# -fcommon: XBoard 4.9 defines some globals in headers, which GCC 10 and later refuse by default.
./configure --prefix="$prefix" --with-gtk CFLAGS="-O2 -fcommon" >configure.log 2>&1
make -j"$(nproc)" >make.log 2>&1 || { tail -n 20 make.log >&2; exit 1; }
make install >install.log 2>&1
echo "$prefix/bin/xboard"

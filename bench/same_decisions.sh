#!/usr/bin/env bash
# Check that a speed change keeps every bot decision: run the heuristic bots over every
# shipped variant (and standard with a few house rules) and compare byte for byte.
#
#   bench/same_decisions.sh record DIR   # write the outputs of this tree to DIR
#   bench/same_decisions.sh check DIR    # run again and compare with DIR (exit 1 on any difference)
#
# Each case runs `simulate V --hands 2000 --seed 1 --json --records` and
# `simulate V --games 300 --seed 7 --json --records`; the JSON and the records (every
# call and card of every hand) must be identical.  Runs the active Python's bidcompiler;
# with TREE=DIR set, the copy of the sources in DIR (e.g. a `git archive` of a commit, so
# that the tree may change while the check runs).  With BOTS=KIND (e.g. BOTS=random) every
# case runs with `--bots KIND` (the random bots' fused playout, the simulate driver's fast path).
set -euo pipefail
mode=${1:?usage: same_decisions.sh record|check DIR}
dir=${2:?usage: same_decisions.sh record|check DIR}
jobs=${JOBS:-2}
cases=(
  "standard" "rhode-island" "northeast52" "cutthroat" "two-handed" "cincinnati" "oregon" "hawaii"
  "standard --with min-bid-4" "standard --with kitty-face-up" "standard --with to-5"
)
out=$dir
[ "$mode" = check ] && out=$(mktemp -d)
mkdir -p "$out"
out=$(realpath "$out")
run() {  # $1: output stem, $2: what to play, rest: variant and options
  local stem=$1 what=$2; shift 2
  cd "${TREE:-.}"  # not this checkout: python -c puts the folder it runs in first on sys.path
  PYTHONPATH=${TREE:-} nice python -c "import sys, os; import bidcompiler.cli as c
tree = os.environ.get('TREE')
assert not tree or c.__file__.startswith(os.path.abspath(tree)), c.__file__
sys.argv[0] = 'bidwhist'; c.main()" simulate "$@" $what ${BOTS:+--bots "$BOTS"} --json --records "$out/$stem.records.jsonl" --workers 1 \
    > "$out/$stem.json"
}
export -f run; export out; [ -n "${BOTS:-}" ] && export BOTS; [ -n "${TREE:-}" ] && export TREE
for c in "${cases[@]}"; do
  stem=$(echo "$c" | tr ' ' '_' | tr -d '-')
  echo "$stem.hands|--hands 2000 --seed 1|$c"
  echo "$stem.games|--games 300 --seed 7|$c"
done | xargs -P "$jobs" -I{} bash -c 'IFS="|" read -r s w c <<< "{}"; run "$s" "$w" $c'
if [ "$mode" = check ]; then
  if diff -r -q "$dir" "$out"; then echo "same decisions: all $(ls "$out" | wc -l) files identical"
  else echo "DIFFERENT (new outputs in $out)"; exit 1; fi
fi

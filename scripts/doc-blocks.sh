# Sourced by the scripts that follow a document word for word (the guide check,
# the README's REST check).
#
# doc_blocks FILE DIR [FROM TO]: writes the fenced blocks of FILE, in order, to
# DIR/NNN.LANG (```sh -> 001.sh, ```text -> 002.text...); with FROM and TO (awk
# patterns), only the blocks between the first line matching FROM and the next
# line matching TO. Three leading spaces (a block inside a list) are removed.
doc_blocks() {
  mkdir -p "$2"
  awk -v dir="$2" -v from="${3:-}" -v to="${4:-}" '
    from != "" && !inside && $0 ~ from { inside=1; next }
    from != "" && inside && $0 ~ to { exit }
    from != "" && !inside { next }
    /^ *```[a-z]+ *$/ && !open { n++; lang=$0; gsub(/[ `]/, "", lang); file=sprintf("%s/%03d.%s", dir, n, lang); open=1; next }
    /^ *``` *$/ && open { open=0; close(file); next }
    open { sub(/^   /, ""); print > file }
  ' "$1"
}

doc_normalize() { sed 's/\x1b\[[0-9;]*m//g' | tr -s ' \t' ' ' | sed 's/^ //; s/ $//'; }

# doc_expect OUT BLOCK: every non-empty line of BLOCK is in OUT (spacing aside),
# else the script fails, showing the line and the output.
doc_expect() {
  local line
  doc_normalize <"$1" >"$1.normalized"
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    if ! grep -qF -- "$(printf '%s' "$line" | doc_normalize)" "$1.normalized"; then
      echo "FAIL: the document says this appears, and it does not:"; echo "  $line"; echo "--- output:"; cat "$1"; exit 1
    fi
  done <"$2"
}

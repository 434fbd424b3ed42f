package livedoctest

// EchoingStdioServer is a stdio MCP server in sh (od, sed, base64 and tr:
// no SDK, no interpreter) that answers initialize with a JSON-RPC error
// whose data echoes $API_TOKEN as peers' libraries write it: as PHP's
// json_encode ("\/"), as .NET's System.Text.Json ("\u002B"), every character
// a \u escape, every byte %XX and %xx, as Python's urllib.parse.quote (safe
// "/") and JavaScript's encodeURIComponent, as hex and HEX, and as base64.
// The percent-encodings are those of the characters "+/=&" only: the token a
// test gives it holds no other character that they would encode, and only
// ASCII (the \u escapes are of bytes). It refuses every other method, as a
// server before MCP 2026-07-28 refuses server/discover.
const EchoingStdioServer = `hex=$(printf '%s' "$API_TOKEN" | od -An -v -tx1 | tr -d ' \n')
HEX=$(printf '%s' "$hex" | tr a-f A-F)
pct=$(printf '%s' "$HEX" | sed 's/../%&/g')
pctl=$(printf '%s' "$hex" | sed 's/../%&/g')
uall=$(printf '%s' "$hex" | sed 's/../\\u00&/g')
php=$(printf '%s' "$API_TOKEN" | sed 's,/,\\/,g')
net=$(printf '%s' "$API_TOKEN" | sed 's,+,\\u002B,g')
py=$(printf '%s' "$API_TOKEN" | sed 's/+/%2B/g; s/=/%3D/g; s/&/%26/g')
js=$(printf '%s' "$py" | sed 's,/,%2F,g')
b64=$(printf '%s' "$API_TOKEN" | base64 | tr -d '\n')
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([^,}]*\).*/\1/p')
  [ -n "$id" ] || continue
  case "$line" in
    *'"method":"initialize"'*)
      printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32001,"message":"token rejected","data":{"php":"%s","net":"%s","u":"%s","pct":"%s","pctl":"%s","py":"%s","js":"%s","hex":"%s","HEX":"%s","b64":"%s"}}}\n' \
        "$id" "$php" "$net" "$uall" "$pct" "$pctl" "$py" "$js" "$hex" "$HEX" "$b64"
      exit 0;;
    *) printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\n' "$id";;
  esac
done`

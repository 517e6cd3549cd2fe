// JSON with 64-bit integers intact. Iceberg's snapshot ids (and other longs) exceed 2^53, where
// JSON.parse would round them; every integer literal outside a string that is not a safe
// integer becomes a string holding its exact digits, and everything else parses as usual.
export function parseJson(text) {
  let out = "";
  let last = 0;
  let i = 0;
  const n = text.length;
  const isDigit = (k) => k < n && text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < n; i++) {
        if (text[i] === "\\") i++;
        else if (text[i] === '"') break;
      }
      i++;
      continue;
    }
    if (c === "-" || isDigit(i)) {
      let j = c === "-" ? i + 1 : i;
      while (isDigit(j)) j++;
      if (j < n && ".eE".includes(text[j])) {
        while (j < n && "0123456789.eE+-".includes(text[j])) j++;  // a fraction: as JSON has it
      } else if (!Number.isSafeInteger(Number(text.slice(i, j)))) {
        out += text.slice(last, i) + '"' + text.slice(i, j) + '"';
        last = j;
      }
      i = j;
      continue;
    }
    i++;
  }
  return JSON.parse(out + text.slice(last));
}

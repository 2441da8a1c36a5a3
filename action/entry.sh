#!/usr/bin/env bash
# Entry script of the polynfi GitHub Action (action.yml). Reads what a
# GitHub runner provides: GITHUB_EVENT_PATH (the event; a pull_request
# event's pull_request.base.sha is the base), GITHUB_BASE_REF (the base
# branch, used when the event has no base), GITHUB_STEP_SUMMARY (Markdown
# appended to the job page), GITHUB_OUTPUT (step outputs). Inputs come as
# POLYNFI_BASE, POLYNFI_FAIL_ON, POLYNFI_FAIL_UNDER, POLYNFI_NEW_CODE,
# POLYNFI_ARGS; POLYNFI is the binary (default: polynfi on PATH).
#
# Writes workflow annotations (new findings, invalid files, failed gates)
# on stdout, the Markdown summary to GITHUB_STEP_SUMMARY, exit-code and
# result to GITHUB_OUTPUT, and exits with polynfi's exit code.
set -uo pipefail

polynfi=${POLYNFI:-polynfi}
base=${POLYNFI_BASE:-}

if [ -z "$base" ] && [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ]; then
  base=$(python3 - "$GITHUB_EVENT_PATH" <<'PY'
import json, sys
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        e = json.load(f)
except (OSError, ValueError):
    sys.exit(0)
pr = e.get("pull_request") if isinstance(e, dict) else None
sha = ((pr or {}).get("base") or {}).get("sha") if isinstance(pr, dict) else None
if isinstance(sha, str) and all(c in "0123456789abcdef" for c in sha) and len(sha) in (40, 64):
    print(sha)
PY
)
fi
if [ -z "$base" ] && [ -n "${GITHUB_BASE_REF:-}" ]; then
  base="origin/${GITHUB_BASE_REF}"
fi
if [ -z "$base" ]; then
  echo "::error title=polynfi::no base revision: not a pull_request event and GITHUB_BASE_REF is empty (set the 'base' input)"
  [ -n "${GITHUB_OUTPUT:-}" ] && { echo "exit-code=2"; echo "result=error"; } >> "$GITHUB_OUTPUT"
  exit 2
fi

# A shallow checkout may lack the base commit: fetch it (and the branch).
if ! git cat-file -e "${base}^{commit}" 2>/dev/null; then
  ref=$base
  case $base in origin/*) ref=${base#origin/};; esac
  git fetch --no-tags --quiet origin "$ref" 2>/dev/null || true
  if ! git cat-file -e "${base}^{commit}" 2>/dev/null && git cat-file -e FETCH_HEAD 2>/dev/null; then
    base=$(git rev-parse FETCH_HEAD)
  fi
fi

args=(--base "$base")
[ -n "${POLYNFI_FAIL_ON:-}" ] && args+=(--fail-on "$POLYNFI_FAIL_ON")
if [ -n "${POLYNFI_FAIL_UNDER:-}" ]; then
  IFS=',' read -r -a under <<< "$POLYNFI_FAIL_UNDER"
  for u in "${under[@]}"; do args+=(--fail-under "$u"); done
fi
[ "${POLYNFI_NEW_CODE:-false}" = "true" ] && args+=(--new-code)
if [ -n "${POLYNFI_ARGS:-}" ]; then
  read -r -a extra <<< "$POLYNFI_ARGS"
  args+=("${extra[@]}")
fi

# One run writes both formats: the annotations on stdout, the Markdown
# summary to a file appended to GITHUB_STEP_SUMMARY (earlier steps' lines
# stay).
formats=(--format github)
md=
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  md=$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/polynfi-summary.XXXXXX") || md=
  [ -n "$md" ] && formats+=(--format "markdown=$md")
fi
"$polynfi" diff "${args[@]}" "${formats[@]}"
code=$?
if [ -n "$md" ]; then
  cat "$md" >> "$GITHUB_STEP_SUMMARY" 2>/dev/null || true
  rm -f "$md"
fi

case $code in
  0) result=pass ;;
  1) result=fail ;;
  *) result=error ;;
esac
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  { echo "exit-code=$code"; echo "result=$result"; } >> "$GITHUB_OUTPUT"
fi
exit "$code"

#!/usr/bin/env bash
# Lints the YAML users copy or run: action.yml and the CI examples, with
# yamllint (ci/yamllint.yml; installed from Debian through
# ci/apt-install.sh when missing), then checks that every file of this
# repository they name exists. A file the repository does not ship may be
# named only behind an existence test ([ -f FILE ] or hashFiles('FILE')).
#
# Usage: ci/lint-yaml.sh
set -euo pipefail
cd "$(dirname "$0")/.."

files=(action.yml ci/example-workflow.yml ci/example-gitlab-ci.yml)

if ! command -v yamllint >/dev/null 2>&1; then
	./ci/apt-install.sh yamllint
fi
yamllint --strict -c ci/yamllint.yml "${files[@]}"

# The folders at the top of the repository: a path under one of them is a
# file of this repository.
tops=
for dir in */; do
	tops="${tops:+$tops|}${dir%/}"
done
missing=0
for file in "${files[@]}"; do
	refs=$(
		{
			grep -oE "(^|[^A-Za-z0-9_./-])(\./)?($tops)/[A-Za-z0-9_./-]*[A-Za-z0-9_-]" "$file" |
				sed -E 's#^[^A-Za-z0-9_.]?(\./)?##' || true
			grep -oE '(action_path|ACTION_PATH)\}*/[A-Za-z0-9_./-]*[A-Za-z0-9_-]' "$file" |
				sed -E 's#^[^/]*/##' || true
		} | sort -u
	)
	for ref in $refs; do
		[ -e "$ref" ] && continue
		if grep -qF -e "-f $ref" -e "hashFiles('$ref')" "$file"; then
			continue
		fi
		echo "$file: names $ref, which the repository does not have" >&2
		missing=1
	done
done
if [ $missing -ne 0 ]; then
	exit 1
fi
echo "lint-yaml: ${files[*]}: yamllint clean, every file they name exists"

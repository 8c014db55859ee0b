// Package shell splits a command line into words and quotes words back,
// by the POSIX shell's quoting rules (POSIX.1-2017, XCU §2.2) and with no
// expansion of any kind: hpackcert runs the programs it is given without
// a shell, and prints command lines a user can paste into one.
package shell

import (
	"errors"
	"strings"
)

// Split splits line into words as a POSIX shell does before expansion:
// blanks (space, tab, newline) separate words; a backslash outside quotes
// keeps the next octet as it is (a backslash-newline pair is removed);
// '...' keeps everything up to the next '; "..." keeps everything up to
// the next unescaped ", where a backslash escapes only $ ` " \ and
// newline. "$", "`", "*", "|" and the like are ordinary octets: nothing
// is expanded and no shell runs. An unterminated quote or a backslash at
// the end is an error.
func Split(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case ' ', '\t', '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\\':
			if i+1 >= len(line) {
				return nil, errors.New("a backslash at the end")
			}
			i++
			if line[i] != '\n' {
				cur.WriteByte(line[i])
				inWord = true
			}
		case '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("an unterminated ' quote")
			}
			cur.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("$`\"\\\n", line[i+1]) >= 0 {
					i++
					if line[i] == '\n' {
						continue
					}
				}
				cur.WriteByte(line[i])
			}
			if i >= len(line) {
				return nil, errors.New(`an unterminated " quote`)
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// plain holds the octets a word may be made of and still need no quotes
// in any POSIX shell, in any position ("=" and ":" included: they mean
// something only in words a user would not pass as arguments).
const plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%"

// Quote returns word quoted for a POSIX shell, or word itself when it
// needs no quotes: Split(Quote(w)) is []string{w} for every word w,
// whatever its octets. Single quotes are used, each ' inside closed,
// escaped and reopened ('\”).
func Quote(word string) string {
	if word != "" && strings.Trim(word, plain) == "" {
		return word
	}
	return "'" + strings.ReplaceAll(word, "'", `'\''`) + "'"
}

// Join quotes each word and joins them with spaces: a command line that
// Split turns back into words.
func Join(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = Quote(w)
	}
	return strings.Join(quoted, " ")
}

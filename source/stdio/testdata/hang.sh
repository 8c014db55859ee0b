# hang.sh LOG: a decoder program speaking hpack-stdio/1 that answers hello
# and the five requests after it, then stops answering, as a decoder stuck
# in a loop does (TestDecoderHangsOnce). It appends "start" to LOG when it
# starts and every request line it reads, and says on its standard error
# where it hangs. Started again, with LOG no longer empty, it exits at
# once: a certifier that starts it again shows in LOG without waiting for
# a timeout more.
log=$1 n=0
if [ -s "$log" ]; then
	echo start >>"$log"
	echo "hang.sh: started again" >&2
	exit 1
fi
echo start >>"$log"
while IFS= read -r line; do
	n=$((n + 1))
	printf '%s\n' "$line" >>"$log"
	if [ $n -gt 6 ]; then
		echo "hang.sh: hanging at request $n" >&2
		exec sleep 3600
	fi
	case $line in
	*'"op":"hello"'*) printf '%s\n' '{"name":"hang.sh","decoder":true}' ;;
	*'"op":"new"'*) printf '%s\n' '{}' ;;
	*) printf '%s\n' '{"headers":[],"never_indexed":[]}' ;;
	esac
done

gunzip -c .dev/phantomgo.gz > /tmp/pg; chmod +x /tmp/pg; B=/tmp/pg; { nproc; lscpu | grep -i 'model name'; date -u; } > $OUT/machine.txt
for r in flat pimc; do PHANTOMGO=$B MOVE_TIME=0.3 CONCURRENCY=8 OUT=/tmp/t$r RUNGS=$r RULES=retry timeout -k 5 560 scripts/gauntlet.sh 100 >> $OUT/run.log 2>&1 & done; wait
for r in flat pimc; do mkdir -p $OUT/t$r; cp /tmp/t$r/retry/$r.jsonl /tmp/t$r/retry/$r.txt $OUT/t$r/ 2>>$OUT/run.log; done
echo "elapsed $SECONDS" >> $OUT/machine.txt
[ $SECONDS -lt 570 ] && timeout 25 $B bench search --seconds 2 --threads 16 >> $OUT/machine.txt 2>&1
echo done >> $OUT/machine.txt

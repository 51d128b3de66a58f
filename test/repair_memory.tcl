# 2026 November 24
#
# The author disclaims copyright to this source code. In place of a legal
# notice, here is a blessing:
#
#    May you do good and not evil.
#    May you find forgiveness for yourself and forgive others.
#    May you share freely, never taking more than you give.
#
#***********************************************************************
# utf8_repair and utf8_undo of 1,000,000 ill-formed values must not hold
# them in memory: each step, run in a child process of its own, may grow
# the process's peak resident memory (VmHWM) by less than 64 MB over its
# resident memory (VmRSS) just before the call. The figures are printed.
# Under the sanitizers (SAN_PRELOAD or LD_PRELOAD set) the steps run and
# are checked but the memory is not asserted. Run once:
# tclsh test/repair_memory.tcl.
#
source [file join [file dirname [info script]] tester.tcl]
set testprefix repair_memory
set t0 [clock milliseconds]

set ROWS 1000000
set LIMIT_KB [expr {64*1024}]
set sanitized [expr {([info exists env(SAN_PRELOAD)] && $env(SAN_PRELOAD) ne "")
                  || ([info exists env(LD_PRELOAD)] && $env(LD_PRELOAD) ne "")}]

set tmpdir [file join [expr {[info exists env(TMPDIR)] ? $env(TMPDIR) : "/tmp"}] \
    utf8ext-memory-[pid]]
file mkdir $tmpdir
set file [file join $tmpdir big.db]

# The child: open FILE, load the extension, read VmRSS, run SQL, read
# VmHWM; prints "RESULT RSS-KB HWM-KB".
set child [file join $tmpdir child.tcl]
set fd [open $child w]
puts $fd {
  package require sqlite3
  lassign $argv ext file sql
  proc status {field} {
    set f [open /proc/self/status]
    set s [read $f]
    close $f
    regexp "$field:\\s+(\\d+) kB" $s -> kb
    return $kb
  }
  sqlite3 db $file
  db enable_load_extension 1
  db eval {SELECT load_extension($ext)}
  db eval {SELECT count(*) FROM sqlite_master}
  set rss [status VmRSS]
  set r [db one $sql]
  set hwm [status VmHWM]
  db close
  puts "$r $rss $hwm"
}
close $fd

proc step {sql} {
  set out [exec [info nameofexecutable] $::child $::extension $::file $sql 2>@1]
  lassign [split [string trim $out]] r rss hwm
  list $r $rss $hwm
}

# About 20 bytes each, one Latin-1 byte (E9) in every value.
catch {db close}
file delete -force $file $file-journal
sqlite3 db $file
db eval [string map [list ROWS $ROWS] {
  CREATE TABLE t(a TEXT);
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<ROWS)
  INSERT INTO t SELECT CAST(printf('caf%07d', i) || x'E9' || ' au lait' AS TEXT) FROM n;
}]
db close
puts "repair_memory: $ROWS rows written in [expr {([clock milliseconds]-$t0)/1000.0}] s"

foreach {name sql check expect} {
  repair {SELECT utf8_repair('t')}
         {SELECT (SELECT count(*) FROM t WHERE NOT utf8_valid(a)), (SELECT count(*) FROM utf8_repair_log)}
         {0 1000000}
  undo   {SELECT utf8_undo('t')}
         {SELECT (SELECT count(*) FROM t WHERE NOT utf8_valid(a)), (SELECT count(*) FROM utf8_repair_log)}
         {1000000 0}
} {
  set t1 [clock milliseconds]
  set rc [catch {step $sql} res]
  set secs [expr {([clock milliseconds]-$t1)/1000.0}]
  if {$rc} {
    do_test $name.run [list set _ $res] $ROWS
    continue
  }
  lassign $res r rss hwm
  set grow [expr {$hwm - $rss}]
  puts [format "repair_memory: %-6s %d values in %.1f s: VmRSS before %d KiB, VmHWM %d KiB, +%d KiB (limit +%d KiB%s)" \
      $name $r $secs $rss $hwm $grow $LIMIT_KB [expr {$sanitized ? ", not asserted under the sanitizers" : ""}]]
  do_test $name.count [list set _ $r] $ROWS
  open_db db $file
  do_execsql_test $name.state $check $expect
  db close
  if {!$sanitized} {
    do_test $name.memory [list expr "$grow < $LIMIT_KB ? {under 64 MB} : {+$grow KiB}"] {under 64 MB}
  }
}

file delete -force $tmpdir
puts "repair_memory: [expr {([clock milliseconds]-$t0)/1000.0}] s"
finish_test

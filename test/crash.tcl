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
# utf8_repair and utf8_undo killed (SIGKILL) at random points. A child
# tclsh runs SELECT utf8_repair('t') (or utf8_undo('t')) on a file
# database of 100,000 rows, two TEXT columns, most values ill-formed, with
# a copy of the originals in table "orig" of the same file; the parent
# kills it after a random delay between 0 and the duration of an
# uninterrupted run (process start included), reopens the file and checks:
# PRAGMA integrity_check is ok, and the state is exactly before (t = the
# originals, the log empty or absent) or exactly after (every value its
# repair, one log row per repaired value holding its original and its
# repair): never between. The same for undo, from the repaired state; in
# rollback-journal (DELETE) and WAL mode. Run once: tclsh test/crash.tcl.
#
# CRASH_SEED sets the seed (printed), CRASH_KILLS the kills per operation
# and journal mode (default 25: 50 per operation over both modes; 12 under
# the sanitizers).
#
source [file join [file dirname [info script]] tester.tcl]
set testprefix crash
set t0 [clock milliseconds]

set ROWS 100000
# Under the sanitizers (SAN_PRELOAD or LD_PRELOAD set) the child runs about
# twice as long: 12 kills per operation and mode keep the run near 2 min.
set sanitized [expr {([info exists env(SAN_PRELOAD)] && $env(SAN_PRELOAD) ne "")
                  || ([info exists env(LD_PRELOAD)] && $env(LD_PRELOAD) ne "")}]
set KILLS [expr {[info exists env(CRASH_KILLS)] ? $env(CRASH_KILLS) : ($sanitized ? 12 : 25)}]
set SEED [expr {[info exists env(CRASH_SEED)] ? $env(CRASH_SEED) : 20261124}]
expr {srand($SEED)}
puts "crash: seed $SEED, $KILLS kills per operation and journal mode, $ROWS rows"

set tmpdir [file join [expr {[info exists env(TMPDIR)] ? $env(TMPDIR) : "/tmp"}] \
    utf8ext-crash-[pid]]
file mkdir $tmpdir
proc dbfile {name} { file join $::tmpdir $name }
proc forcedelete {f} {
  foreach s {"" -journal -wal -shm} { file delete -force $f$s }
}

# The child: open FILE, load the extension, say "calling", call, say
# "done N".
set child [dbfile child.tcl]
set fd [open $child w]
puts $fd {
  package require sqlite3
  lassign $argv ext file op
  sqlite3 db $file
  db enable_load_extension 1
  db eval {SELECT load_extension($ext)}
  puts calling
  flush stdout
  set n [db one "SELECT utf8_${op}('t')"]
  puts "done $n"
  flush stdout
  db close
}
close $fd

# Every row's a is ill-formed (a Latin-1 byte), b in three rows of four.
set SETUP_SQL {
  CREATE TABLE orig(id INTEGER PRIMARY KEY, a TEXT, b TEXT);
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<$ROWS)
  INSERT INTO orig SELECT i,
    CAST(printf('row %06d caf', i) || x'E9' || ' au lait' AS TEXT),
    CASE WHEN i % 4 THEN CAST(printf('b%d', i) || x'FF' || 'z' AS TEXT)
         ELSE printf('fine %d', i) END
  FROM n;
  CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b TEXT);
  INSERT INTO t SELECT * FROM orig;
}
set NBAD [expr {$ROWS + $ROWS - $ROWS/4}]

# The log's rows, 0 when there is no log.
proc logged {h} {
  if {[$h one {SELECT count(*) FROM sqlite_master WHERE name='utf8_repair_log'}]==0} {
    return 0
  }
  $h one {SELECT count(*) FROM utf8_repair_log}
}

# Which state FILE is in: "original" (t = orig, no log rows), "repaired"
# (t = the repair of orig, the log complete and exact), or a description
# of what is wrong.
proc state_of {file} {
  sqlite3 v $file
  load_utf8ext v
  set ic [v eval {PRAGMA integrity_check}]
  if {$ic ne "ok"} { v close; return "integrity_check: [lrange $ic 0 3]" }
  set n [v one {SELECT count(*) FROM t}]
  if {$n != $::ROWS} { v close; return "t has $n rows" }
  set log [logged v]
  set same [v one {SELECT count(*) FROM t JOIN orig USING(id)
                   WHERE t.a IS orig.a AND t.b IS orig.b
                     AND typeof(t.a)='text' AND typeof(t.b)='text'}]
  set fixed [v one {SELECT count(*) FROM t JOIN orig USING(id)
                    WHERE t.a IS utf8_fix(orig.a) AND t.b IS utf8_fix(orig.b)
                      AND typeof(t.a)='text' AND typeof(t.b)='text'}]
  set r ""
  if {$same == $::ROWS && $log == 0} {
    set r original
  } elseif {$fixed == $::ROWS && $log == $::NBAD} {
    set exact [v one {
      SELECT count(DISTINCT l.col || ' ' || l.rid) FROM utf8_repair_log l JOIN orig o ON o.id=l.rid
      WHERE l.tbl='t' AND l.method='fix'
        AND l.original = CAST(CASE l.col WHEN 'a' THEN o.a WHEN 'b' THEN o.b END AS BLOB)
        AND l.repaired = CAST(utf8_fix(CASE l.col WHEN 'a' THEN o.a WHEN 'b' THEN o.b END) AS BLOB)
    }]
    if {$exact == $::NBAD} {
      set r repaired
    } else {
      set r "the log has $log rows but only $exact match an original and its repair"
    }
  } else {
    set r "between: $same rows original, $fixed repaired, $log log rows"
  }
  v close
  return $r
}

# Run the child on FILE; kill it after MS milliseconds (never, if MS<0).
# Returns what it printed: "" (killed before the call), "calling" (killed
# during the call) or "calling done N".
proc run_child {file op ms} {
  set p [open |[list [info nameofexecutable] $::child $::extension $file $op 2>@1] r]
  if {$ms >= 0} {
    after $ms
    catch {exec kill -9 [pid $p]}
  }
  set out [read $p]
  catch {close $p}
  string trim [string map {\n " "} $out]
}

foreach mode {delete wal} {
  # The templates: before (original) and after (repaired) the repair.
  set orig_tmpl [dbfile orig-$mode.db]
  set rep_tmpl [dbfile rep-$mode.db]
  forcedelete $orig_tmpl
  sqlite3 tdb $orig_tmpl
  tdb eval "PRAGMA journal_mode=$mode"
  tdb eval [string map [list {$ROWS} $ROWS] $SETUP_SQL]
  if {$mode eq "wal"} { tdb eval {PRAGMA wal_checkpoint(TRUNCATE)} }
  tdb close
  forcedelete $rep_tmpl
  file copy $orig_tmpl $rep_tmpl
  sqlite3 tdb $rep_tmpl
  load_utf8ext tdb
  set n [tdb one {SELECT utf8_repair('t')}]
  if {$mode eq "wal"} { tdb eval {PRAGMA wal_checkpoint(TRUNCATE)} }
  tdb close
  do_test $mode.setup {list $n [state_of $orig_tmpl] [state_of $rep_tmpl]} \
      [list $NBAD original repaired]

  foreach {op from to} {repair original repaired undo repaired original} {
    set tmpl [expr {$from eq "original" ? $orig_tmpl : $rep_tmpl}]
    set file [dbfile work.db]
    # The uninterrupted run, timed from the process start.
    forcedelete $file
    file copy $tmpl $file
    set t1 [clock milliseconds]
    set out [run_child $file $op -1]
    set dur [expr {[clock milliseconds] - $t1}]
    set st [state_of $file]
    do_test $mode.$op.clean [list list $out $st] \
        [list "calling done $NBAD" $to]

    set tally [dict create]
    set bad 0
    for {set i 1} {$i <= $KILLS} {incr i} {
      set ms [expr {int(rand() * $dur)}]
      forcedelete $file
      file copy $tmpl $file
      set out [run_child $file $op $ms]
      set when [expr {$out eq "" ? "before the call" :
                      $out eq "calling" ? "mid-call" :
                      [regexp {^calling done [0-9]+$} $out] ? "after the call" : "child error"}]
      set st [state_of $file]
      if {$when eq "child error"} {
        incr bad
        if {$bad <= 5} { puts "crash-$mode.$op: kill $i at $ms ms FAILED: the child said: $out" }
        set st BAD
      } elseif {$st eq $from} {
        set st before
      } elseif {$st eq $to} {
        set st after
      } else {
        incr bad
        if {$bad <= 5} { puts "crash-$mode.$op: kill $i at $ms ms ($when) FAILED: $st" }
        set st BAD
      }
      dict incr tally "$st/$when"
    }
    set summary {}
    foreach k [lsort [dict keys $tally]] { lappend summary "$k [dict get $tally $k]" }
    puts [format "crash-%s.%s: %d kills in 0..%d ms: %s" $mode $op $KILLS $dur [join $summary ", "]]
    if {$bad == 0} { incr nPass } else { incr nFail }
  }
}

file delete -force $tmpdir
puts "crash: [expr {([clock milliseconds]-$t0)/1000.0}] s"
finish_test

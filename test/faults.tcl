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
# utf8_repair and utf8_undo when the call fails part way: interrupts,
# progress handlers, a full disk, locks, constraints, and calls from
# places that cannot hold a transaction of their own. Run once (not per
# validator implementation): tclsh test/faults.tcl.
#
# The contract checked: a call either succeeds (returns its count; in
# autocommit mode its work is committed and no transaction stays open,
# inside the user's transaction the work stays there and the transaction
# stays open), or fails in exactly one of two states:
#
#   (A) the message ends "; nothing was changed": every table and the log
#       are exactly as before the call, and the transaction state too (no
#       transaction open after an autocommit call; the user's transaction
#       still open, with the user's earlier changes in it);
#   (B) only inside a user's transaction: the message contains "SQLite
#       rolled back the whole transaction", no transaction is open and the
#       database is as it was before the user's BEGIN.
#
# Part 1 sweeps every progress-handler callback of a repair and an undo.
# Part 2 (cases 2.*) are the single findings of the issue.
#
source [file join [file dirname [info script]] tester.tcl]
set testprefix faults
set t0 [clock milliseconds]

set tmpdir [file join [expr {[info exists env(TMPDIR)] ? $env(TMPDIR) : "/tmp"}] \
    utf8ext-faults-[pid]]
file mkdir $tmpdir

proc dbfile {name} { file join $::tmpdir $name }
proc forcedelete {f} {
  foreach s {"" -journal -wal -shm} { file delete -force $f$s }
}

proc q {name} { return "\"[string map {\" \"\"} $name]\"" }

# The whole state of schema SCHEMA of handle H: every table, the log
# included (without its "at" column, the time of the run), every row as
# typeof:hex of every column, rows sorted.
proc dump {{schema main} {h db}} {
  set out {}
  foreach t [$h eval "SELECT name FROM [q $schema].sqlite_master
                       WHERE type='table' AND name NOT LIKE 'sqlite_%'
                       ORDER BY name"] {
    set cols {}
    $h eval "SELECT name FROM pragma_table_xinfo(\$t, \$schema)" {
      if {$t eq "utf8_repair_log" && $name eq "at"} continue
      lappend cols "typeof([q $name])||':'||hex([q $name])"
    }
    set rows {}
    set flat [$h eval "SELECT [join $cols ,] FROM [q $schema].[q $t]"]
    set n [llength $cols]
    for {set i 0} {$i < [llength $flat]} {incr i $n} {
      lappend rows [lrange $flat $i [expr {$i+$n-1}]]
    }
    lappend out $t [lsort $rows]
  }
  return $out
}

# 1 if a transaction is open on H (BEGIN fails inside one), else 0.
proc in_txn {{h db}} {
  if {[catch {$h eval BEGIN}]} { return 1 }
  $h eval ROLLBACK
  return 0
}

# Rows in the log of SCHEMA (0 when there is no log).
proc logged {{schema main} {h db}} {
  if {[$h one "SELECT count(*) FROM [q $schema].sqlite_master
               WHERE name='utf8_repair_log'"]==0} { return 0 }
  $h one "SELECT count(*) FROM [q $schema].utf8_repair_log"
}

# Ill-formed text from hex.
proc bad {hex} { return "CAST(x'$hex' AS TEXT)" }

#-------------------------------------------------------------------------
# 1.* The progress-handler sweep.
#
# A dozen rows in two TEXT columns (one row with two bad values), a
# WITHOUT ROWID table with an ill-formed key, and a table the user's own
# transaction writes to. The call is utf8_repair(NULL) (every table) or
# utf8_undo() (every logged value, after a repair in the set-up).
#
set SWEEP_SCHEMA "
  CREATE TABLE t(a TEXT, b TEXT);
  INSERT INTO t VALUES
    ('one', 'uno'), ([bad 74776FC0], 'dos'), ('three', [bad 7472E873]),
    ([bad 666FFF], [bad 6375E174726F]), ('five', 'cinco'), ('six', 'seis'),
    ([bad EDA080], 'siete'), ('eight', 'ocho'), ('nine', [bad 6E75657665F5]),
    ('ten', 'diez'), ([bad C1BF], 'once'), ('twelve', 'doce');
  CREATE TABLE w(k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
  INSERT INTO w VALUES ([bad 6BC0], 'kv'), ('good', [bad 76FE]), ('fine', 'ok');
  CREATE TABLE other(x);
"

# Progress callbacks: one every PROGRESS_N virtual machine steps.
set PROGRESS_N 5

# The call of operation OP.
proc sweep_sql {op} {
  if {$op eq "repair"} { return {SELECT utf8_repair(NULL)} }
  return {SELECT utf8_undo()}
}

# A fresh copy of the template of the configuration, opened as db.
proc sweep_open {tmpl file} {
  catch {db close}
  forcedelete $file
  file copy -force $tmpl $file
  open_db db $file
}

# The user's part: BEGIN and an INSERT of its own when TXN is 1.
proc sweep_user {txn} {
  if {$txn} { db eval {BEGIN; INSERT INTO other VALUES ('mine')} }
}

# The call; returns {rc result}.
proc sweep_call {op} {
  set rc [catch {db one [sweep_sql $op]} res]
  list $rc $res
}

set sweep_total_calls 0
foreach op {repair undo} {
  foreach mode {delete wal} {
    foreach txn {0 1} {
      set cfg "$op/$mode/[expr {$txn ? {txn} : {autocommit}}]"
      set tmpl [dbfile sweep-template.db]
      set file [dbfile sweep.db]
      forcedelete $tmpl
      open_db db $tmpl
      db eval "PRAGMA journal_mode=$mode"
      db eval $SWEEP_SCHEMA
      if {$op eq "undo"} { db one {SELECT utf8_repair(NULL)} }
      if {$mode eq "wal"} { db eval {PRAGMA wal_checkpoint(TRUNCATE)} }
      db close

      # The uninterrupted call: the success state and the count of
      # progress callbacks.
      sweep_open $tmpl $file
      set s_base [dump]
      sweep_user $txn
      set s_before [dump]
      set ::n 0
      db progress $PROGRESS_N {incr ::n; expr 0}
      set r [sweep_call $op]
      db progress 0 {}
      set ncalls $::n
      set s_after [dump]
      do_test 1.$cfg.clean [list list [lindex $r 0] [expr {[lindex $r 1] > 0}] [in_txn]] \
          [list 0 1 $txn]
      set count [lindex $r 1]

      set tally [dict create success 0 A 0 B 0 bad 0]
      set nshown 0
      foreach variant {interrupt once deadline} {
        set nshownv 0
        for {set k 1} {$k <= $ncalls} {incr k} {
          incr sweep_total_calls
          sweep_open $tmpl $file
          sweep_user $txn
          set ::n 0
          set ::k $k
          switch $variant {
            interrupt { db progress $PROGRESS_N {if {[incr ::n]==$::k} {db interrupt}; expr 0} }
            once      { db progress $PROGRESS_N {expr {[incr ::n]==$::k}} }
            deadline  { db progress $PROGRESS_N {expr {[incr ::n]>=$::k}} }
          }
          set r [sweep_call $op]
          db progress 0 {}
          lassign $r rc res
          set open [in_txn]
          set state [dump]
          set why ""
          if {$rc==0} {
            set kind success
            if {$res ne $count} { set why "returned $res, not $count" }
            if {$state ne $s_after} { append why " state is not the success state" }
            if {$open != $txn} { append why " transaction open=$open" }
          } elseif {[string match "*; nothing was changed" $res]} {
            set kind A
            if {$state ne $s_before} { append why " state changed" }
            if {$open != $txn} { append why " transaction open=$open" }
          } elseif {$txn && [string match "*SQLite rolled back the whole transaction*" $res]} {
            set kind B
            if {$state ne $s_base} { append why " state is not the state before BEGIN" }
            if {$open} { append why " a transaction is open" }
          } elseif {![regexp {^utf8_(repair|undo): } $res] && $state eq $s_after
                    && $open == $txn} {
            # The call returned its count and committed; the calling
            # statement was stopped after it (the handler runs in the
            # outer statement's steps too): the success state.
            set kind success
          } else {
            set kind bad
            set why "error is neither (A) nor (B);"
            if {$state eq $s_before} { append why " state = before" } \
            elseif {$state eq $s_after} { append why " state = success" } \
            elseif {$state eq $s_base} { append why " state = before BEGIN" } \
            else { append why " state = partial" }
            append why ", transaction open=$open"
          }
          # Durable: commit what is open, reopen, the same state.
          if {$why eq ""} {
            if {$open} {
              if {[catch {db eval COMMIT} m]} { set why "COMMIT failed: $m" }
            }
            if {$why eq ""} {
              db close
              open_db db $file
              if {[dump] ne $state} { set why "the state after reopening differs" }
            }
          }
          if {$why ne ""} {
            if {$kind ne "bad"} { set kind bad }
            incr nshown
            if {[incr nshownv] <= 2} {
              puts "faults-1.$cfg: $variant K=$k FAILED: $why (rc=$rc: $res)"
            }
          }
          dict incr tally $kind
        }
      }
      catch {db close}
      if {$nshown > 0} { puts "faults-1.$cfg: $nshown failures in all (at most 2 shown per variant)" }
      puts [format "faults-1.%-22s %4d callbacks (N=%d) x 3: success %d, A %d, B %d, bad %d" \
          $cfg $ncalls $PROGRESS_N [dict get $tally success] [dict get $tally A] \
          [dict get $tally B] [dict get $tally bad]]
      if {[dict get $tally bad] == 0} { incr nPass } else { incr nFail }
    }
  }
}
puts "faults-1: $sweep_total_calls interrupted calls in [expr {([clock milliseconds]-$t0)/1000.0}] s"

catch {db close}
file delete -force $tmpdir
finish_test

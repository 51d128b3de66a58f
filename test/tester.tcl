# 2026 November 21
#
# The author disclaims copyright to this source code. In place of a legal
# notice, here is a blessing:
#
#    May you do good and not evil.
#    May you find forgiveness for yourself and forgive others.
#    May you share freely, never taking more than you give.
#
#***********************************************************************
# A small tester in the style of SQLite's own test/tester.tcl. A test file
# sources it, sets testprefix, and calls:
#
#   do_execsql_test NAME SQL EXPECTED     the rows of SQL, as a Tcl list
#   do_catchsql_test NAME SQL EXPECTED    {0 rows} or {1 {error message}}
#   do_test NAME SCRIPT EXPECTED          the result of a Tcl script
#   finish_test                           prints "FILE: N passed, N failed"
#
# The handle "db" is an in-memory database with the extension loaded.
# UTF8EXT_LIB names the extension to load (default: ./utf8ext at the top
# of the source tree); UTF8EXT_IMPL, when set, is passed on to it.
#
package require sqlite3

set testdir [file dirname [file normalize [info script]]]
set topdir [file dirname $testdir]
if {[info exists env(UTF8EXT_LIB)]} {
  set extension $env(UTF8EXT_LIB)
} else {
  set extension [file join $topdir utf8ext]
}
set testprefix ""
set nPass 0
set nFail 0

# Load the extension into database handle DB.
proc load_utf8ext {db} {
  $db enable_load_extension 1
  $db eval {SELECT load_extension($::extension)}
}

# Open database FILE (default :memory:) as handle DB, with the extension.
proc open_db {db {file :memory:}} {
  catch {$db close}
  sqlite3 $db $file
  load_utf8ext $db
}

proc test_name {name} {
  if {$::testprefix ne ""} { return "$::testprefix-$name" }
  return $name
}

# Run SCRIPT at global level and compare its result with EXPECTED.
proc do_test {name script expected} {
  set name [test_name $name]
  if {[catch {uplevel #0 $script} result]} {
    set result "TCL ERROR: $result"
  }
  if {$result eq $expected} {
    incr ::nPass
  } else {
    incr ::nFail
    puts "$name FAILED"
    puts "  expected: \[$expected\]"
    puts "  got:      \[$result\]"
  }
}

proc execsql {sql {db db}} {
  uplevel #0 [list $db eval $sql]
}

proc catchsql {sql {db db}} {
  set rc [catch {uplevel #0 [list $db eval $sql]} msg]
  list $rc $msg
}

# EXPECTED is written as a list; compare it in its canonical form.
proc do_execsql_test {name sql expected} {
  do_test $name [list execsql $sql] [list {*}$expected]
}

proc do_catchsql_test {name sql expected} {
  do_test $name [list catchsql $sql] [list {*}$expected]
}

# Run the real sqlite3 shell (SQLITE3, default "sqlite3") on an in-memory
# database: ".load" the extension, then each argument as a command or SQL.
# Returns what it printed, standard error included.
proc shell_run {args} {
  set sqlite3 sqlite3
  if {[info exists ::env(SQLITE3)]} { set sqlite3 $::env(SQLITE3) }
  set cmd [list $sqlite3 -batch :memory: ".load $::extension" {*}$args]
  # Line-buffer stdout so errors (stderr) and rows come in their order.
  if {[auto_execok stdbuf] ne ""} { set cmd [list stdbuf -oL {*}$cmd] }
  catch {exec {*}$cmd 2>@1} out
  regsub {\nchild process exited abnormally$} $out {} out
  # ".limit NAME N" echoes the limit on stdout; keep only the answers.
  regsub -all -line {^ +[a-z_]+ [0-9]+\n?} $out {} out
  return [string trimright $out]
}

proc finish_test {} {
  catch {db close}
  set file [file rootname [file tail $::argv0]]
  puts "$file: $::nPass passed, $::nFail failed"
  exit [expr {$::nFail > 0}]
}

open_db db

"""utf8ext for Python's sqlite3: the utf8ext SQLite extension, prebuilt.

    import sqlite3, utf8ext
    conn = sqlite3.connect("data.db")
    utf8ext.load(conn)
    conn.execute("SELECT utf8_valid(?)", (b"caf\\xe9",)).fetchone()   # (0,)

loadable_path() is the module's file, for anything that loads SQLite
extensions by path (sqlite3 shell: .load PATH). The functions are described
in the project's docs (docs/ in the source tree).
"""
import os
import sys

__all__ = ["loadable_path", "load", "__version__"]
__version__ = "@VERSION@"

if sys.platform == "win32":
    _SUFFIX = ".dll"
elif sys.platform == "darwin":
    _SUFFIX = ".dylib"
else:
    _SUFFIX = ".so"


def loadable_path():
    """The absolute path of the utf8ext module shipped in this package."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "utf8ext" + _SUFFIX)


def load(conn):
    """Load utf8ext into the sqlite3 connection conn.

    Extension loading is switched on for the load only and off again after.
    Raises RuntimeError when this Python's sqlite3 module was built without
    extension loading (it has no enable_load_extension), and
    sqlite3.OperationalError when SQLite refuses the module.
    """
    if not hasattr(conn, "enable_load_extension"):
        raise RuntimeError(
            "utf8ext: this Python's sqlite3 module cannot load extensions "
            "(sqlite3.Connection has no enable_load_extension: Python was "
            "built without --enable-loadable-sqlite-extensions). Use a "
            "Python whose sqlite3 can, such as the distribution's python3, "
            "or rebuild this one with that option.")
    conn.enable_load_extension(True)
    try:
        conn.load_extension(loadable_path())
    finally:
        conn.enable_load_extension(False)

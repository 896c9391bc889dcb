"""Run a Python process here as if it ran on another system (tests/test_platforms.py).

Put this directory first on PYTHONPATH and set ``FAKE_PLATFORM`` to ``darwin`` or ``win32``: Python
imports this file as it starts, before any of the process's own code.  It then

* hides ``fcntl`` and ``resource`` (``import fcntl`` fails), as on Windows; macOS has both, but
  RLIMIT_AS is not enforced there and sudorules must not need them to start;
* hides ``/proc``: ``open`` and ``os.open`` of a path under it fail with FileNotFoundError;
* on ``win32``, gives a ``msvcrt`` whose ``locking`` locks the file's bytes from its current position
  (built on POSIX record locks, which conflict between processes as Windows' do), and, with
  ``FAKE_WINDOWS_SIGNALS=1``, removes what Windows' ``signal`` and ``os`` lack (SIGPIPE, SIGKILL,
  pthread_sigmask, fork, sched_getaffinity, ...): only for commands that start no worker, since the
  standard library's POSIX process code, which still runs here, needs them;
* sets ``sys.platform``.

What is faked is sudorules' view of the system.  The standard library and the third-party packages
(numpy, pandas, click, clipspy) decide some things by ``sys.platform`` at import (click imports
``ctypes.windll`` on win32), so they are imported first, as this system's.  A worker process
started with ``spawn`` runs this file too; its ``sys.platform`` is set after multiprocessing's own
bootstrap (which would ask for ``_winapi``), before the worker's code runs.
"""

import builtins
import io
import os
import sys

PLATFORM = os.environ.get("FAKE_PLATFORM")

if PLATFORM:
    import fcntl as _fcntl
    import multiprocessing
    import multiprocessing.connection
    import multiprocessing.popen_spawn_posix
    import multiprocessing.resource_tracker
    import multiprocessing.spawn
    import multiprocessing.synchronize
    import multiprocessing.util
    import signal
    import subprocess  # noqa: F401
    import sysconfig
    import tempfile  # noqa: F401
    import threading  # noqa: F401

    sysconfig.get_config_vars()  # pandas reads them, from a module named by sys.platform
    import click  # noqa: F401
    import clips  # noqa: F401
    import numpy  # noqa: F401
    import pandas  # noqa: F401
    import tqdm  # noqa: F401

    for _name in ("fcntl", "resource"):
        sys.modules[_name] = None  # import fails

    def _hidden(path) -> bool:
        try:
            path = os.fsdecode(os.fspath(path))
        except TypeError:  # a file descriptor
            return False
        return path == "/proc" or path.startswith("/proc/")

    _open, _os_open = builtins.open, os.open

    def _fake_open(file, *args, **kwargs):
        if _hidden(file):
            raise FileNotFoundError(2, "No such file or directory", file)
        return _open(file, *args, **kwargs)

    def _fake_os_open(path, *args, **kwargs):
        if _hidden(path):
            raise FileNotFoundError(2, "No such file or directory", path)
        return _os_open(path, *args, **kwargs)

    builtins.open = io.open = _fake_open
    os.open = _fake_os_open

    if PLATFORM == "win32":
        class _Msvcrt:
            LK_UNLCK, LK_LOCK, LK_NBLCK = 0, 1, 2

            @staticmethod
            def locking(fd, mode, nbytes):
                if mode == _Msvcrt.LK_UNLCK:
                    _fcntl.lockf(fd, _fcntl.LOCK_UN, nbytes, 0, os.SEEK_CUR)
                    return
                try:
                    _fcntl.lockf(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB, nbytes, 0, os.SEEK_CUR)
                except OSError:
                    raise OSError(13, "Permission denied") from None  # EACCES, as Windows says it

        sys.modules["msvcrt"] = _Msvcrt  # type: ignore[assignment]
        if os.environ.get("FAKE_WINDOWS_SIGNALS"):
            for _name in ("SIGPIPE", "SIGKILL", "SIGHUP", "SIGALRM", "SIGUSR1", "SIGUSR2", "SIGCHLD",
                          "pthread_sigmask", "pthread_kill", "setitimer", "alarm", "siginterrupt"):
                if hasattr(signal, _name):
                    delattr(signal, _name)
            for _name in ("fork", "sched_getaffinity", "getuid", "geteuid", "killpg", "setsid", "fchmod"):
                if hasattr(os, _name):
                    delattr(os, _name)
    if PLATFORM == "darwin" and hasattr(os, "sched_getaffinity"):
        del os.sched_getaffinity

    if "--multiprocessing-fork" in sys.argv:  # a spawned worker
        _bootstrap = multiprocessing.spawn._main

        def _main(*args, **kwargs):
            sys.platform = PLATFORM
            return _bootstrap(*args, **kwargs)

        multiprocessing.spawn._main = _main
    else:
        sys.platform = PLATFORM

"""What a host serving a table needs of its own process: room for every connection."""

from __future__ import annotations

import resource


def raise_open_files_limit() -> tuple[int, int]:
    """Raise the soft limit on open files to the hard one (1024 is common, and each waiting
    connection holds one): returns the soft limit before and after."""
    infinity = resource.RLIM_INFINITY
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft in (infinity, hard):
        return soft, soft
    # macOS refuses an infinite soft limit (and more than kern.maxfilesperproc): then less.
    for wanted in ((hard,) if hard != infinity else ()) + (1 << 20, 10240):
        wanted = wanted if hard == infinity else min(wanted, hard)
        if wanted <= soft:
            continue
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            continue
        break
    return soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0]

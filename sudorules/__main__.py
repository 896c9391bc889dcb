"""``python -m sudorules``: the same command line as the ``sudorules`` script."""

from .cli import main

if __name__ == "__main__":
    main()

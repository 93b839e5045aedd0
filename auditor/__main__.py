import sys

from ._cli.main import main

if __name__ == "__main__":  # not when a spawned worker process re-imports the main module
    sys.exit(main())

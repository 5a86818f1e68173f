"""Entry point of the bundled app (PyInstaller): the same as the installed `aquarelle` command.

No arguments (or one file) opens the desktop app; `render`, `doctor`, ... are the CLI.
"""

import multiprocessing

from aquarelle.cli.main import main

if __name__ == "__main__":
    # the window paints big stills in spawned processes (media/still_process.py): a frozen
    # app's child starts here and must become that process, not another app
    multiprocessing.freeze_support()
    raise SystemExit(main())

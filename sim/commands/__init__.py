"""Subcommands of the ``tablesim`` command line (one module each, see ``sim/cli.py``)."""

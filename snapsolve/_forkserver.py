"""The preload of the workers' fork server (`snapsolve.workers`): importing this module readies the process for it.

Only the fork server that `workers.context` starts imports it; in any other
process `workers.ready_server` does nothing.
"""

from .workers import ready_server

ready_server()

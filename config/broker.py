"""The Celery broker's transport: kombu's Redis transport, fixed to survive a Redis restart.

With celery 5.7.0 and kombu 5.7.0 (pinned; the latest of both), a worker whose Redis goes away
stopped for good with ``Unrecoverable error: AttributeError("'NoneType' object has no attribute
'hostname'")`` whenever it held a message unacknowledged — and it always does while an AI seat's
or an auto-pass's countdown task waits (issue #9). What happens, in the worker's consumer
(``on_connection_error_after_connected``):

1. ``connection.collect()`` closes the default channel. That channel is waiting on BRPOP, so
   kombu's ``Channel.close`` first reads the pending reply (``_brpop_read``), which raises the
   connection error; the close stops there, the channel stays open, and ``collect`` swallows the
   error and detaches the transport from its connection (``transport.client = None``).
2. ``connection.close()`` closes the channel again. This time it drops its Redis pools and then
   restores the unacknowledged messages (``QoS.restore_unacked``), which needs a pool: kombu
   builds one from ``transport.client.hostname`` — ``None.hostname``. An AttributeError is not a
   connection error, so nothing ignores it and the worker exits.

``Channel`` fixes both steps: a close does not stop at a BRPOP reply that cannot be read (the
connection is gone: there is nothing to read), and a pool rebuilt after the transport was
detached uses the connection parameters the channel built first. (It also lets a close skip
deleting its auto-delete queues when Redis cannot be reached: the worker's gossip step logged
an AttributeError traceback for that, because celery closes that channel once its connection
is already None.) The restore then runs as kombu
means it to: against Redis if it answers again (the messages go back to their queue), else it
fails with a connection error, which the worker ignores as it always did (the messages stay in
Redis's unacked set and kombu restores them after the visibility timeout; a Redis that restarted
empty lost them, and the clock's re-arm and the sweep, ``games.play.clock``/``games.tasks``, make
good what they were for).

``use()`` makes every Redis broker URL (``redis://``, ``rediss://``, ``redis+socket://``) load
``Transport``: kombu resolves transports by name through ``kombu.transport.TRANSPORT_ALIASES``.
``config/celery.py`` calls it; ``tests/games/play/test_broker_restart.py`` restarts a private Redis
under a real worker.
"""

from __future__ import annotations

from queue import Empty
from typing import Any

from kombu import transport as kombu_transport
from kombu.transport import redis as kombu_redis

#: The transport names this module takes over, and the one it is registered as.
REDIS_NAMES = ("redis", "rediss")
TRANSPORT = "config.broker:Transport"


class Channel(kombu_redis.Channel):
    """kombu's Redis channel whose ``close`` survives a connection that is already gone."""

    # kombu 5.7.0's Channel has both (its transport's errors, copied in as a channel option;
    # set while close() runs); kombu-stubs (celery-types 0.26.0) leave them out. Annotations
    # only: nothing is assigned here.
    connection_errors: tuple[type[Exception], ...]
    _closing: bool

    def _brpop_read(self, **options: Any) -> Any:
        """kombu's: read the pending BRPOP reply (a message, or True/False for kombu's event
        loop, as kombu's own); raises Empty where the connection is gone while closing."""
        try:
            # kombu-stubs leave out this private method of kombu 5.7.0's Channel, which has it.
            return super()._brpop_read(**options)  # type: ignore[misc]
        except self.connection_errors:
            if self._closing:
                raise Empty() from None  # what close() expects when there is nothing to read
            raise

    def queue_delete(self, queue: str, *args: Any, **kwargs: Any) -> int | None:
        """kombu's; 0 (nothing deleted) where the connection is gone while closing."""
        try:
            return super().queue_delete(queue, *args, **kwargs)
        except self.connection_errors:
            if self._closing:  # an auto-delete queue (gossip, control) of a lost connection
                return 0
            raise

    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        built = self.__dict__.setdefault("_built_connparams", {})
        if self.connection.client is None and asynchronous in built:
            return dict(built[asynchronous])  # detached by collect(): the parameters it had
        # kombu-stubs (celery-types 0.26.0) leave out this private method of kombu 5.7.0's
        # Channel, which has it: it is the one this class wraps.
        params: dict[str, Any] = super()._connparams(asynchronous=asynchronous)  # type: ignore[misc]
        built[asynchronous] = dict(params)
        return params


class Transport(kombu_redis.Transport):
    """kombu's Redis transport with ``Channel``."""

    Channel = Channel


def use() -> None:
    """Make kombu load ``Transport`` for every Redis broker URL (idempotent)."""
    for name in REDIS_NAMES:
        kombu_transport.TRANSPORT_ALIASES[name] = TRANSPORT

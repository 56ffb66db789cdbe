# LocalStack init hook (ready stage), run inside the LocalStack process: infra/local/localstack.sh copies this
# directory to $FILESYSTEM_ROOT/etc/localstack/init before it starts LocalStack.
#
# Why: LocalStack 4.14 makes a message whose visibility timeout expired visible again only on a fixed 1 s tick
# (QueueUpdateWorker, period=1). The upload worker receives a message right after such a tick and changes its
# visibility a few milliseconds later, so the deadline always falls just after a tick and every retry waits one
# more tick: a 2 s backoff became a 3.0 s gap, 16 s became 17.0 s. SQS itself has no such tick. A second,
# 100 ms schedule of the same re-queue pass brings redelivery to within 0.1 s of the deadline; the pass only
# looks at in-flight messages, so it is cheap. `make smoke` checks the resulting redelivery time.
import logging

from localstack.services.plugins import SERVICE_PLUGINS

REQUEUE_TICK_SECONDS = 0.1

log = logging.getLogger("localstack.init.pastebin")
worker = SERVICE_PLUGINS.get_service("sqs").lifecycle_hook._queue_update_worker
if worker.scheduler is None:
    raise RuntimeError("the SQS queue update worker is not running; is SQS among SERVICES (EAGER_SERVICE_LOADING=1)?")
worker.scheduler.schedule(worker.do_update_all_queues, period=REQUEUE_TICK_SECONDS)
log.info("SQS: expired visibility timeouts are now re-queued every %.1f s (LocalStack's own tick: 1 s)",
         REQUEUE_TICK_SECONDS)

# Usage: make run | test | up | down | status | smoke   (ARGS="..." passes arguments on, e.g. make test ARGS="-pl core -am")

LOCAL := infra/local
ARGS ?=

.PHONY: run test up down status smoke

## run: start PostgreSQL and LocalStack, build, and run the local runtime
run:
	$(LOCAL)/run.sh $(ARGS)

## test: start the services, mvn verify (unit + integration tests), stop what it started
test:
	$(LOCAL)/test.sh $(ARGS)

## up: start (or reuse) PostgreSQL and LocalStack and create the queues and bucket
up:
	$(LOCAL)/up

## down: stop the services this project started
down:
	$(LOCAL)/down

## status: one line per service
status:
	$(LOCAL)/status

## smoke: check the LocalStack behaviour the design relies on (after `make up`)
smoke:
	.tools/localstack-venv/bin/python $(LOCAL)/smoke.py

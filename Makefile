# Usage: make [help] | run | test | chaos | up | down | status | smoke | sam-build
#        (ARGS="..." passes arguments on, e.g. make test ARGS="-pl core -am")

LOCAL := infra/local
ARGS ?=

.PHONY: help run test chaos up down status smoke sam-build
.DEFAULT_GOAL := help

## help: list these targets (the default)
help:
	@echo "Targets (make <target>; ARGS=\"...\" passes arguments on, e.g. make test ARGS=\"-pl core -am\"):"
	@sed -n 's/^## \([^:]*\): \(.*\)/\1|\2/p' $(firstword $(MAKEFILE_LIST)) | awk -F'|' '{ printf "  %-10s %s\n", $$1, $$2 }'

## run: start PostgreSQL and LocalStack, build, and run the local runtime
run:
	$(LOCAL)/run.sh $(ARGS)

## test: start the services, mvn verify (unit + integration tests), sam build check, stop what it started
test:
	$(LOCAL)/test.sh $(ARGS)

## chaos: the chaos suite: thousands of pastes while S3, SQS, PostgreSQL and the upload worker fail; writes docs/reliability.md
chaos:
	$(LOCAL)/chaos.sh $(ARGS)

## up: start (or reuse) PostgreSQL and LocalStack and create the queues, bucket and database secret
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
	bash -c 'source $(LOCAL)/lib.sh && "$$LOCALSTACK_VENV/bin/python" $(LOCAL)/smoke.py'

## sam-build: sam build of every function into infra/target/sam-build, and check each one was built
sam-build:
	$(LOCAL)/sam-build.sh

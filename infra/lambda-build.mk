# The build of one function module's Lambda artifact, shared by the modules' Makefiles
# (create-function/Makefile etc.), which set LAMBDA_FUNCTIONS and include this file.
#
# Used by `sam build` (infra/template.yaml: CodeUri is the module directory, Metadata BuildMethod: makefile)
# and by the local runtime, both as
#     make -C <module dir> build-<LogicalId> ARTIFACTS_DIR=<dir>
# (sam build passes ARTIFACTS_DIR in the environment and the Makefile as an absolute --makefile path).
#
#   <module>/target/function.zip   a file target: `mvn package` of the module (and core, -am), run only when
#                                  a source or pom it is built from is newer than the zip. The zip is what
#                                  infra/lambda-zip.xml assembles: the module's jar and its runtime
#                                  dependencies, all under lib/, and the database's CA bundle under tls/.
#   build-<LogicalId>              unzips that zip into $(ARTIFACTS_DIR): cheap when the zip is up to date.
#
# Every path here is absolute, derived from where the Makefiles are, so the build works from any working
# directory: sam build runs make in the module directory with --build-in-source (infra/samconfig.toml) and
# in a scratch copy of it without.
#
# Builds of different modules share core/target: run them one at a time (sam build's default; not
# `sam build --parallel`).
#
# Settings (make variables or environment):
#   MVN                  the Maven command (default: mvn). Needs a JDK 21+ (JAVA_HOME): the java21 runtime.
#   PASTEBIN_MAVEN_ARGS  extra Maven options (infra/local/lib.sh sets it when it has to fall back).

ifndef LAMBDA_FUNCTIONS
$(error LAMBDA_FUNCTIONS is not set: the module's Makefile names the template's logical ids it builds)
endif
ifndef FUNCTION_MODULE_DIR
$(error FUNCTION_MODULE_DIR is not set: the module's Makefile sets it to its own directory before the include)
endif

PASTEBIN_ROOT_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
FUNCTION_MODULE := $(patsubst $(PASTEBIN_ROOT_DIR)/%,%,$(FUNCTION_MODULE_DIR))
LAMBDA_ZIP := $(FUNCTION_MODULE_DIR)/target/function.zip
MVN ?= mvn
LAMBDA_MVN_COMMAND = $(MVN) -B -q -ntp -Dstyle.color=never $(PASTEBIN_MAVEN_ARGS) package -pl $(FUNCTION_MODULE) -am -DskipTests

# The database's CA bundle, kept in the repository (infra/tls/README.md) and packed as tls/; a new one rebuilds
# the zip (defined before LAMBDA_INPUTS, which expands it at once).
CA_BUNDLE := $(PASTEBIN_ROOT_DIR)/infra/tls/database-ca-bundle.pem

# What the artifact is built from: the module's and core's main sources (test sources never ship), those of
# the other modules it depends on (its Makefile's LAMBDA_SHARED_MODULES, e.g. api-core, custom-resource), their poms, the
# parent pom (versions, the lambda-artifact profile) and the zip's layout, and what else a module packs (its
# Makefile's LAMBDA_EXTRA_INPUTS, e.g. edge-acl-function's infra/edge-waf.yaml).
LAMBDA_SHARED_DIRS := $(addprefix $(PASTEBIN_ROOT_DIR)/,core $(LAMBDA_SHARED_MODULES))
LAMBDA_INPUTS := $(shell find $(FUNCTION_MODULE_DIR)/src/main $(addsuffix /src/main,$(LAMBDA_SHARED_DIRS)) -type f) \
    $(FUNCTION_MODULE_DIR)/src/lambda-artifact \
    $(FUNCTION_MODULE_DIR)/pom.xml $(addsuffix /pom.xml,$(LAMBDA_SHARED_DIRS)) $(PASTEBIN_ROOT_DIR)/pom.xml \
    $(PASTEBIN_ROOT_DIR)/infra/lambda-zip.xml $(CA_BUNDLE) $(LAMBDA_EXTRA_INPUTS)

LAMBDA_TARGETS := $(addprefix build-,$(LAMBDA_FUNCTIONS))

.PHONY: $(LAMBDA_TARGETS) lambda-zip
.DEFAULT_GOAL := lambda-zip

## lambda-zip: build target/function.zip when a source or pom is newer than it
lambda-zip: $(LAMBDA_ZIP)

# Maven rewrites the zip on every package; the touch makes sure make never rebuilds an up-to-date zip.
$(LAMBDA_ZIP): $(LAMBDA_INPUTS)
	@echo "$(FUNCTION_MODULE): target/function.zip is out of date; in $(PASTEBIN_ROOT_DIR): $(LAMBDA_MVN_COMMAND)"
	@cd "$(PASTEBIN_ROOT_DIR)" && $(LAMBDA_MVN_COMMAND) \
	    || { echo "$(FUNCTION_MODULE): the Maven build failed (output above). It needs Maven and a JDK 21+:" \
	              "set JAVA_HOME to one (java -version shows which java mvn finds)." >&2; exit 1; }
	@test -f "$@" || { echo "$(FUNCTION_MODULE): Maven succeeded but wrote no $@;" \
	    "is src/lambda-artifact (the lambda-artifact profile's marker) still there?" >&2; exit 1; }
	@touch "$@"

## build-<LogicalId>: unpack target/function.zip into ARTIFACTS_DIR (what sam build and the local runtime run)
# The artifact is lib/ and tls/ (infra/lambda-zip.xml): both are replaced whole, so nothing of an earlier build stays.
$(LAMBDA_TARGETS): $(LAMBDA_ZIP)
	@test -n "$(ARTIFACTS_DIR)" || { echo "$@: ARTIFACTS_DIR is not set. sam build sets it;" \
	    "by hand: make -C $(FUNCTION_MODULE) $@ ARTIFACTS_DIR=<empty dir>" >&2; exit 2; }
	@command -v unzip >/dev/null || { echo "$@: unzip is not installed (install the unzip package)" >&2; exit 2; }
	@mkdir -p "$(ARTIFACTS_DIR)"
	@echo "$@: unzipping $(FUNCTION_MODULE)/target/function.zip into $(ARTIFACTS_DIR)"
	@rm -rf "$(ARTIFACTS_DIR)/lib" "$(ARTIFACTS_DIR)/tls"
	@unzip -q -o "$<" -d "$(ARTIFACTS_DIR)"

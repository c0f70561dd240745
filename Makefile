# ukasan: `make` builds the runtime and tools, `make test` runs every test,
# `make demo` shows each kind of report, `make bench` measures.
CC      ?= cc
ifeq ($(origin CC),default)
CC      := gcc
endif
BUILD   := build
CFLAGS_RT := -std=gnu11 -O2 -g -fPIC -fvisibility=hidden -ftls-model=initial-exec \
	-fno-omit-frame-pointer -fno-builtin-malloc -fno-builtin-calloc -fno-builtin-realloc \
	-fno-builtin-free -Wall -Wextra -Werror=implicit-function-declaration
LDLIBS_RT := -ldl -lpthread -lgcc_s

RT_SRCS := $(sort $(wildcard src/*/*.c))
RT_OBJS := $(RT_SRCS:src/%.c=$(BUILD)/obj/%.o)
LIB     := $(BUILD)/lib/libukasan.so
TOOLS   := $(BUILD)/bin/ukasan

.PHONY: all test demo bench clean deps format
all: $(LIB) $(TOOLS)

$(BUILD)/obj/%.o: src/%.c $(wildcard src/*/*.h) include/ukasan.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_RT) -c $< -o $@

$(LIB): $(RT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-z,now -Wl,--no-undefined -o $@ $^ $(LDLIBS_RT)

$(BUILD)/bin/%: tools/%
	@mkdir -p $(dir $@)
	cp $< $@
	chmod +x $@

deps:
	@sh tools/deps.sh

test: all
	@sh tools/deps.sh test
	python3 tests/run.py

demo: all
	@sh examples/demo.sh

bench: all
	@sh tools/deps.sh bench
	python3 bench/run.py

format:
	clang-format-16 -i $(RT_SRCS) $(wildcard src/*/*.h) include/ukasan.h

clean:
	rm -rf $(BUILD)

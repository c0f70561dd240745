# ukasan: `make` builds the runtime and tools, `make test` runs every test
# (installing, as root, the real software and arm64 tools it needs, each
# group named first), `make test-core` the core tests with gcc and clang
# only,
# `make demo` shows each kind of report, `make bench` measures,
# `make install` installs under PREFIX (and DESTDIR).
# make ARCH=aarch64: the arm64 runtime and tools, built with the cross
# compiler into build/aarch64/ (tests: python3 tests/run.py --arch aarch64,
# under qemu-aarch64).
# Quiet by default, as the kernel's Kbuild: one `  CC  file` line a step, the
# compiler's warnings in full; make V=1 prints every command instead, and
# make -s nothing but warnings.
V ?= 0
ifeq ($(V),1)
Q   :=
say := @:
else
Q   := @
say := @printf '  %-7s %s\n'
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
say := @:
endif
endif
HOST_ARCH := $(shell uname -m)
ARCH    ?= $(HOST_ARCH)
CC      ?= cc
ifeq ($(origin CC),default)
CC      := gcc
ifneq ($(ARCH),$(HOST_ARCH))
CC      := $(ARCH)-linux-gnu-gcc
endif
endif
ifeq ($(ARCH),$(HOST_ARCH))
BUILD   := build
else
BUILD   := build/$(ARCH)
endif
PREFIX  ?= /usr/local
# The symbolizer's headers by name, wherever the includer lives: report
# output includes "symbolize.h" so it need not know the folder. Header names
# in src/ are unique, and tests/layers/check_layers.py resolves includes
# through this path as the compiler does (and checks that uniqueness).
RT_INCLUDES := -Isrc/symbolize
# -ffunction-sections, -fdata-sections: src/hot_text.ld gathers the code a
# preloaded program runs, and the small variables of .bss, into one place
# each (tools/hot_text.py says why).
CFLAGS_RT := -std=gnu11 -O2 -g -fPIC -ffunction-sections -fdata-sections -fvisibility=hidden -ftls-model=initial-exec \
	-fno-omit-frame-pointer -fno-builtin-malloc -fno-builtin-calloc -fno-builtin-realloc \
	-fno-builtin-free -fno-builtin-__memcpy_chk -fno-builtin-__memset_chk \
	-fno-builtin-__memmove_chk -Wall -Wextra -Werror=implicit-function-declaration \
	$(RT_INCLUDES)
LDLIBS_RT := -ldl -lpthread
# Relative relocations packed (DT_RELR, glibc 2.36): the loader reads, and
# keeps resident, 16 KB fewer of the library's first pages in every
# process. Segments 64 KB aligned (arm64's linker's default), as the
# kernel's fault-around windows are: the code segment's first window holds
# the PLT and all of hot_text.ld's code, where at a 4 KB alignment they
# straddled two. The arm64 cross linker of Debian 12 does not pack
# relocations.
ifeq ($(ARCH),x86_64)
LDFLAGS_RT := -Wl,-z,pack-relative-relocs -Wl,-z,max-page-size=0x10000
endif

# src/interceptors/ is not part of the library: it is linked into programs.
# src/leaks/ is the ukasan-leaks program (`ukasan leaks PID`), nor is it,
# nor platform/remote.c, its ptrace and memory access.
RT_SRCS := $(sort $(filter-out src/interceptors/% src/leaks/% src/platform/remote.c,$(wildcard src/*/*.c)))
RT_ASM  := $(sort $(wildcard src/arch/$(ARCH)/*.S))
RT_HDRS := $(filter-out src/interceptors/%,$(wildcard src/*/*.h src/*/*.inc)) $(wildcard src/arch/$(ARCH)/*.h)
RT_OBJS := $(RT_SRCS:src/%.c=$(BUILD)/obj/%.o) $(RT_ASM:src/%.S=$(BUILD)/obj/%.o)
LIB     := $(BUILD)/lib/libukasan.so
TOOLS   := $(BUILD)/bin/ukasan $(BUILD)/bin/ukasan-symbolize $(BUILD)/bin/ukasan-cc $(BUILD)/bin/ukasan-c++ \
	$(BUILD)/bin/ukasan-leaks
# ukasan-leaks: kmemleak's scan and report, linked with what they stand on
# (no runtime/: nothing of it runs inside this program), and its own main.
LEAKS_SRCS := $(sort $(wildcard src/leaks/*.c))
LEAKS_OBJS := $(LEAKS_SRCS:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/platform/remote.o \
	$(filter %/resume.o,$(RT_OBJS)) $(filter $(foreach d,kmemleak report symbolize stack config platform arch,$(BUILD)/obj/$(d)/%),$(RT_SRCS:src/%.c=$(BUILD)/obj/%.o))
# Linked into instrumented programs by ukasan-cc: the generic-mode marker,
# and the checking memcpy/str* interposers (executables only).
# The system-call hooks: an archive of their own, which ukasan-cc links
# without --whole-archive, so only into what calls them (syscall_hooks.c).
HOOKS_SRC := src/interceptors/syscall_hooks.c
HOOKS := $(BUILD)/lib/libukasan_syscall_hooks.a
STATIC_SRCS := $(sort $(filter-out $(HOOKS_SRC),$(wildcard src/interceptors/*.c)))
STATIC_HDRS := $(wildcard src/interceptors/*.h)
STATIC_OBJS := $(STATIC_SRCS:src/%.c=$(BUILD)/obj/%.o) \
	$(RT_ASM:src/arch/$(ARCH)/%.S=$(BUILD)/obj/interceptors/%.o)
MARKER  := $(BUILD)/lib/ukasan_marker.o
# The same for software tags (ukasan-cc UKASAN_MODE=sw_tags).
MARKER_SW := $(BUILD)/lib/ukasan_marker_sw_tags.o
STATIC  := $(BUILD)/lib/libukasan_static.a
# The interposers' names, which ukasan-cc exports from the program so that
# libraries' calls reach them too: read from the objects, so that a new
# interceptor needs no list kept by hand.
EXPORTS := $(BUILD)/lib/ukasan_exports
# No builtins: memcpy must not compile into a call to itself.
CFLAGS_STATIC := -std=gnu11 -O2 -g -fPIC -fno-builtin -fno-tree-loop-distribute-patterns -fno-omit-frame-pointer \
	-Wall -Wextra

.PHONY: all test test-core demo bench clean deps format install uninstall FORCE
CLANG_H := $(BUILD)/lib/clang_reports.h
# Which architecture a build tree's ukasan-cc compiles for.
ARCH_FILE := $(BUILD)/lib/ukasan_arch
# clang's UBSan runtime with the __sanitizer_* functions libukasan.so also
# defines renamed, which ukasan-cc links instead of the driver's for
# -fsanitize=undefined with =fuzzer: the program's own copies would stand
# for ukasan's (libFuzzer's death callback given to UBSan's runtime, no
# crash file on a ukasan report). Empty where clang has no such runtime.
UBSAN_RT := $(BUILD)/lib/ukasan_ubsan.a
UBSAN_RENAMED := __sanitizer_acquire_crash_state __sanitizer_cov_dump __sanitizer_cov_reset \
	__sanitizer_dump_coverage __sanitizer_get_module_and_offset_for_pc __sanitizer_get_report_path \
	__sanitizer_install_malloc_and_free_hooks __sanitizer_print_stack_trace \
	__sanitizer_report_error_summary __sanitizer_sandbox_on_notify __sanitizer_set_death_callback \
	__sanitizer_set_report_fd __sanitizer_set_report_path __sanitizer_symbolize_global \
	__sanitizer_symbolize_pc
all: $(LIB) $(TOOLS) $(MARKER) $(MARKER_SW) $(STATIC) $(HOOKS) $(EXPORTS) $(CLANG_H) $(ARCH_FILE) $(UBSAN_RT)

# An empty stub (clang-16 was missing when it was made) is looked at again on
# every make, so installing clang later takes effect without a clean build.
UBSAN_RT_RECHECK := $(shell test -s $(UBSAN_RT) || echo FORCE)
$(UBSAN_RT): Makefile $(UBSAN_RT_RECHECK)
	@mkdir -p $(dir $@)
	$(say) GEN $@
	$(Q)a=$$(clang-16 --target=$(ARCH)-linux-gnu -print-file-name=libclang_rt.ubsan_standalone-$(ARCH).a 2>/dev/null); \
	if [ -f "$$a" ]; then objcopy $(foreach s,$(UBSAN_RENAMED),--redefine-sym $(s)=__ukasan_ubsan$(s)) "$$a" $@; \
	else rm -f $@ && touch $@; fi

$(ARCH_FILE): Makefile
	@mkdir -p $(dir $@)
	$(say) GEN $@
	$(Q)echo $(ARCH) > $@

$(CLANG_H): src/kasan/clang_reports.h
	@mkdir -p $(dir $@)
	$(say) COPY $@
	$(Q)cp $< $@

$(BUILD)/obj/interceptors/%.o: src/interceptors/%.c $(STATIC_HDRS) $(RT_HDRS)
	@mkdir -p $(dir $@)
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS_STATIC) -c $< -o $@

# The register-preserving callbacks again, private to each executable.
$(BUILD)/obj/interceptors/%.o: src/arch/$(ARCH)/%.S $(RT_HDRS)
	@mkdir -p $(dir $@)
	$(say) AS $@
	$(Q)$(CC) -DUKASAN_STATIC -c $< -o $@

$(MARKER): $(BUILD)/obj/interceptors/marker.o
	@mkdir -p $(dir $@)
	$(say) COPY $@
	$(Q)cp $< $@

$(MARKER_SW): src/interceptors/marker.c
	@mkdir -p $(dir $@)
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS_STATIC) -DUKASAN_SW_TAGS -c $< -o $@

$(STATIC): $(filter-out %/marker.o,$(STATIC_OBJS))
	@mkdir -p $(dir $@)
	$(say) AR $@
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

$(HOOKS): $(BUILD)/obj/interceptors/syscall_hooks.o
	@mkdir -p $(dir $@)
	$(say) AR $@
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

$(EXPORTS): $(filter-out %/marker.o,$(filter %.o,$(STATIC_SRCS:src/%.c=$(BUILD)/obj/%.o)))
	@mkdir -p $(dir $@)
	$(say) GEN $@
	$(Q){ echo '{'; for o in $^; do readelf -Ws $$o | awk '($$5 == "GLOBAL" || $$5 == "WEAK") && \
		$$6 == "DEFAULT" && $$7 != "UND" && $$4 == "FUNC" { print "  " $$8 ";" }'; done; \
		echo '};'; } > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/leaks/%.o: src/leaks/%.c src/leaks/leaks.h $(RT_HDRS)
	@mkdir -p $(dir $@)
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS_RT) -c $< -o $@

$(BUILD)/obj/%.o: src/%.c $(RT_HDRS) include/ukasan.h
	@mkdir -p $(dir $@)
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS_RT) -c $< -o $@

$(BUILD)/obj/%.o: src/%.S $(RT_HDRS)
	@mkdir -p $(dir $@)
	$(say) AS $@
	$(Q)$(CC) -c $< -o $@

$(LIB): $(RT_OBJS) src/hot_text.ld
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) -shared -Wl,-z,now -Wl,--no-undefined $(LDFLAGS_RT) -Wl,-T,src/hot_text.ld -o $@ $(RT_OBJS) \
		$(LDLIBS_RT)

# The same library with its code in the compiler's order, for
# tools/hot_text.py to profile: valgrind attributes no code outside .text.
$(BUILD)/profile/libukasan.so: $(RT_OBJS)
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) -shared -Wl,-z,now -Wl,--no-undefined -o $@ $(RT_OBJS) $(LDLIBS_RT)

$(BUILD)/bin/%: tools/%
	@mkdir -p $(dir $@)
	$(say) COPY $@
	$(Q)cp $< $@
	$(Q)chmod +x $@

$(BUILD)/bin/ukasan-leaks: $(LEAKS_OBJS)
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) -o $@ $^ $(LDLIBS_RT)

$(BUILD)/bin/ukasan-c++: tools/ukasan-cc
	@mkdir -p $(dir $@)
	$(say) COPY $@
	$(Q)cp $< $@
	$(Q)chmod +x $@

# The tools find everything relative to their own directory, so the tree
# installed works wherever it lands (DESTDIR included). libukasan.so goes
# where LD_PRELOAD users and the linker expect it; what ukasan-cc links into
# programs goes in a private lib/ukasan/, where ukasan-cc looks first.
INST    = $(DESTDIR)$(PREFIX)
# Manual pages: the commands' (section 1) and the options' (section 7).
MAN1    := $(sort $(wildcard man/*.1))
MAN7    := $(sort $(wildcard man/*.7))
install: all
	install -d "$(INST)/bin" "$(INST)/lib/ukasan" "$(INST)/include"
	install -m 755 $(LIB) "$(INST)/lib/"
	install -m 644 $(MARKER) $(MARKER_SW) $(STATIC) $(HOOKS) $(EXPORTS) $(CLANG_H) $(ARCH_FILE) $(UBSAN_RT) "$(INST)/lib/ukasan/"
	install -m 755 $(TOOLS) "$(INST)/bin/"
	install -m 644 include/ukasan.h "$(INST)/include/"
	install -d "$(INST)/share/man/man1"
	install -m 644 $(MAN1) "$(INST)/share/man/man1/"
	$(if $(MAN7),install -d "$(INST)/share/man/man7")
	$(if $(MAN7),install -m 644 $(MAN7) "$(INST)/share/man/man7/")

uninstall:
	rm -f "$(INST)/bin/ukasan" "$(INST)/bin/ukasan-symbolize" "$(INST)/bin/ukasan-cc" \
		"$(INST)/bin/ukasan-c++" "$(INST)/bin/ukasan-leaks" "$(INST)/lib/libukasan.so" \
		"$(INST)/lib/ukasan/ukasan_marker.o" "$(INST)/lib/ukasan/ukasan_marker_sw_tags.o" \
		"$(INST)/lib/ukasan/libukasan_static.a" "$(INST)/lib/ukasan/libukasan_syscall_hooks.a" \
		"$(INST)/lib/ukasan/clang_reports.h" "$(INST)/lib/ukasan/ukasan_exports" \
		"$(INST)/lib/ukasan/ukasan_arch" "$(INST)/lib/ukasan/ukasan_ubsan.a" "$(INST)/include/ukasan.h"
	rm -f $(MAN1:man/%="$(INST)/share/man/man1/%") $(MAN7:man/%="$(INST)/share/man/man7/%")
	rmdir "$(INST)/lib/ukasan" 2>/dev/null || true

deps:
	@sh tools/deps.sh

# The tools first: on a fresh machine even the compiler may be missing.
# Both architectures: x86-64 natively, then arm64 under qemu-aarch64, in one
# count.
test:
	@echo "make test: every test, x86-64 and arm64 (under qemu), with real software (tests/real/); make test-core runs the core tests with gcc and clang only"
	@sh tools/deps.sh test
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory ARCH=aarch64 all
	@python3 tests/real/check_arm64_real.py fetch
	python3 tests/run.py --also-arch aarch64

# The core suites: generic KASAN and KFENCE on this machine, the tools, the
# layering, the unwinder and shared libraries; gcc, g++, clang-16 and
# llvm-16 only: no real software, no arm64, no qemu.
CORE_TESTS := tests/generic/ tests/kfence/ tests/tools/ tests/layers/ tests/unwind/ tests/fuzz/ \
	tests/shared/ tests/stress/ tests/report/
test-core:
	@sh tools/deps.sh core
	@$(MAKE) --no-print-directory all
	python3 tests/run.py $(CORE_TESTS)

demo:
	@sh tools/deps.sh
	@$(MAKE) --no-print-directory all
	@sh examples/demo.sh

bench:
	@sh tools/deps.sh bench
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory ARCH=aarch64 all
	python3 bench/run.py
	python3 bench/run_preload.py
	python3 bench/run_generic.py
	python3 bench/run_churn.py
	python3 bench/run_leak.py
	python3 bench/run_seeds.py
	python3 bench/run_sqlite.py
	python3 bench/run_services.py
	python3 bench/run_corpus.py
	python3 bench/run_fuzz_afl.py
	python3 bench/run_fuzz_libfuzzer.py
	python3 bench/run_fuzz_honggfuzz.py
	python3 bench/run_report_cost.py
	python3 bench/run_arm64.py

format:
	clang-format-16 -i $(RT_SRCS) $(RT_HDRS) $(STATIC_SRCS) $(HOOKS_SRC) $(STATIC_HDRS) include/ukasan.h

clean:
	rm -rf $(BUILD)

# A prerequisite that is never up to date (see UBSAN_RT_RECHECK).
FORCE:

/* libyaml's parser as a fuzz target (LLVMFuzzerTestOneInput), for the
 * fuzzer benchmarks (bench/run_fuzz_*.py) and, behind a main that reads a
 * file, AFL++'s clean target (tests/fuzz/_afl_yaml.c). */
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	yaml_parser_t parser;
	yaml_event_t event;
	if (!yaml_parser_initialize(&parser))
		return 0;
	yaml_parser_set_input_string(&parser, data, size);
	for (;;) {
		if (!yaml_parser_parse(&parser, &event))
			break;
		int done = event.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&event);
		if (done)
			break;
	}
	yaml_parser_delete(&parser);
	return 0;
}

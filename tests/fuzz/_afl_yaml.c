/* libyaml's parser over an AFL++ input file: a clean target, on which a
 * fuzzing run must save no crash. */
#include <stdio.h>
#include <yaml.h>

int main(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	if (argc < 2)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 2;
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser))
		return 0;
	yaml_parser_set_input_string(&parser, buf, n);
	for (;;) {
		yaml_event_t event;
		if (!yaml_parser_parse(&parser, &event))
			break;
		int end = event.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&event);
		if (end)
			break;
	}
	yaml_parser_delete(&parser);
	return 0;
}

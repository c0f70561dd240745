/* Lies to libyaml about the size of its input: an 11-byte document in an
 * 11-byte buffer, announced as 40 bytes. libyaml's own reader must be caught
 * reading past the buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

int main(void)
{
	char *doc = malloc(11);
	memcpy(doc, "key: value\n", 11);
	yaml_parser_t parser;
	yaml_event_t event;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)doc, 40);
	for (int i = 0; i < 10 && yaml_parser_parse(&parser, &event); i++) {
		int end = event.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&event);
		if (end)
			break;
	}
	yaml_parser_delete(&parser);
	free(doc);
	printf("done\n");
	return 0;
}

// RUN: kfence.sample_rate=1
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// A value holding the separators is quoted, '...' or "...", as in
// ASAN_OPTIONS: the report goes to the log file named, whose name has ':',
// ',' and a space in it, and the JSON line to the other file, whose name
// has a single quote; tab, newline and carriage return separate options
// too. The program sets UKASAN_OPTIONS itself (the file names are in a
// directory of its own) and runs itself again: options are read at start.
// NOT: ukasan:
// NOT: BUG: KFENCE
// STDOUT: log 'a:b,c d.PID' holds the report
// STDOUT: json 'j'1:x.PID' holds its line
#include <string.h>
#include <unistd.h>

#include "kfence_test.h"

static int file_has(const char *dir, const char *name, const char *text)
{
	char path[512], buf[65536];
	snprintf(path, sizeof(path), "%s/%s.%d", dir, name, (int)getpid());
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	unlink(path);
	return strstr(buf, text) != NULL;
}

int main(int argc, char **argv)
{
	static char opts[1024];
	char dir[] = "/tmp/ukasan-quoted-XXXXXX";
	if (argc < 2) {
		if (!mkdtemp(dir))
			return 90;
		snprintf(opts, sizeof(opts),
		         "kfence.sample_rate=1\tukasan.log_path='%s/a:b,c d'\n"
		         "ukasan.json_path=\"%s/j'1:x\"\r,ukasan.report_format=both",
		         dir, dir);
		setenv("UKASAN_OPTIONS", opts, 1);
		fflush(stdout);
		execl("/proc/self/exe", argv[0], dir, (char *)NULL);
		return 91;
	}
	report_use_after_free();
	const char *d = argv[1];
	printf("log 'a:b,c d.PID' %s\n",
	       file_has(d, "a:b,c d", "BUG: KFENCE: use-after-free read") ? "holds the report"
	                                                                  : "lacks the report");
	printf("json 'j'1:x.PID' %s\n",
	       file_has(d, "j'1:x", "\"kfence.sample_rate\":1,") ? "holds its line" : "lacks its line");
	rmdir(d);
	return 0;
}

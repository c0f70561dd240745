/* A Node-API addon with one function, sum(n): 0..n-1 copied into a heap
 * buffer and added up. Built with -DBUG (UKASAN_BUG=1) it writes one
 * element past the end. */
#include <node_api.h>
#include <stdlib.h>

#ifdef BUG
#define EXTRA 1
#else
#define EXTRA 0
#endif

static napi_value sum(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value arg, result;
	int64_t n, s = 0;
	napi_get_cb_info(env, info, &argc, &arg, NULL, NULL);
	napi_get_value_int64(env, arg, &n);
	volatile int *a = malloc(n * sizeof(int));
	for (int64_t i = 0; a && i < n + EXTRA; i++)
		a[i] = (int)i;
	for (int64_t i = 0; a && i < n; i++)
		s += a[i];
	free((void *)a);
	napi_create_int64(env, s, &result);
	return result;
}

static napi_value init(napi_env env, napi_value exports)
{
	napi_value fn;
	napi_create_function(env, "sum", NAPI_AUTO_LENGTH, sum, NULL, &fn);
	napi_set_named_property(env, exports, "sum", fn);
	return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)

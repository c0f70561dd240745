/* A Python extension with one function, sum(n): it copies 0..n-1 into a
 * heap buffer and into a stack array and adds them up. Built with
 * -DBUG, both loops write one element past the end: a heap and a stack
 * out-of-bounds write that KASAN must report from inside the
 * uninstrumented python3. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

#ifdef BUG
#define EXTRA 1
#else
#define EXTRA 0
#endif

static long heap_sum(long n)
{
	volatile int *a = malloc(n * sizeof(int));
	long s = 0;
	if (!a)
		return -1;
	for (long i = 0; i < n + EXTRA; i++)
		a[i] = (int)i;
	for (long i = 0; i < n; i++)
		s += a[i];
	free((void *)a);
	return s;
}

static long stack_sum(long n)
{
	volatile int a[4];
	long s = 0;
	if (n > 4)
		n = 4;
	for (long i = 0; i < n + EXTRA; i++)
		a[i] = (int)i;
	for (long i = 0; i < n; i++)
		s += a[i];
	return s;
}

static PyObject *sum(PyObject *self, PyObject *args)
{
	long n;
	(void)self;
	if (!PyArg_ParseTuple(args, "l", &n))
		return NULL;
	return PyLong_FromLong(heap_sum(n) + stack_sum(n));
}

static PyMethodDef methods[] = {
    {"sum", sum, METH_VARARGS, "heap and stack sums of 0..n-1"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "overflow", NULL, -1, methods};

PyMODINIT_FUNC PyInit_overflow(void)
{
	return PyModule_Create(&module);
}

/* CWE-416 Use After Free: BAD.
 * Bug: a member of an object is read after delete.
 * Good twin: cwe416_19_new_delete_member_read_good.cc
 */
#include <cstdio>

class Account {
public:
	explicit Account(int balance) : balance_(balance) {}
	int balance() const { return balance_; }
private:
	int balance_;
};

int main()
{
	Account *a = new Account(100);
	int b;

	delete a;
	b = a->balance();
	std::printf("%d\n", b);
	return 0;
}

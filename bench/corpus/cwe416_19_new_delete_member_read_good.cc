/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_19_new_delete_member_read_bad.cc.
 * Bug there: a member of an object is read after delete.
 * Fixed here: the member is read before delete.
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

	b = a->balance();
	delete a;
	std::printf("%d\n", b);
	return 0;
}

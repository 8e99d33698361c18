public class HelloW { public static void main(String[] a) { System.out.println("hello " + System.currentTimeMillis()); } }

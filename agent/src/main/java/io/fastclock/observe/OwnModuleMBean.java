package io.fastclock.observe;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanException;
import javax.management.MBeanInfo;
import javax.management.NotCompliantMBeanException;
import javax.management.ReflectionException;
import javax.management.StandardMBean;

/**
 * An MXBean whose getters are called from this module, not by JMX's reflection. The agent's module
 * exports nothing to the application, and JMX invokes a standard MXBean's methods from a class of
 * its own in an unnamed module (sun.reflect.misc.Trampoline), which therefore cannot reach them; the
 * MBean info is still the MXBean's own (open types, descriptors), only the calls go through here.
 */
final class OwnModuleMBean implements DynamicMBean {
    private final Object bean;
    private final MBeanInfo info;
    private final Map<String, Method> getters = new HashMap<>();

    <T> OwnModuleMBean(T bean, Class<T> mxbeanInterface) throws NotCompliantMBeanException {
        this.bean = bean;
        this.info = new StandardMBean(bean, mxbeanInterface, true).getMBeanInfo();
        for (Method m : mxbeanInterface.getMethods()) {
            String name = m.getName();
            if (m.getParameterCount() == 0 && name.startsWith("get") && name.length() > 3) {
                getters.put(name.substring(3), m);
            } else if (m.getParameterCount() == 0 && name.startsWith("is") && name.length() > 2) {
                getters.put(name.substring(2), m);
            }
        }
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException, MBeanException, ReflectionException {
        Method getter = getters.get(attribute);
        if (getter == null) {
            throw new AttributeNotFoundException(attribute);
        }
        try {
            return getter.invoke(bean);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw new MBeanException(cause instanceof Exception ? (Exception) cause : new RuntimeException(cause));
        } catch (IllegalAccessException e) {
            throw new ReflectionException(e);
        }
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList list = new AttributeList();
        for (String a : attributes) {
            try {
                list.add(new Attribute(a, getAttribute(a)));
            } catch (AttributeNotFoundException | MBeanException | ReflectionException e) {
                // left out, as JMX does for an attribute it cannot read
            }
        }
        return list;
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException(attribute.getName() + " is read-only");
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) throws ReflectionException {
        throw new ReflectionException(new NoSuchMethodException(actionName));
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        return info;
    }
}
